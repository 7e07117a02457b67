// The parts of OpenAPI 3.1 this code base writes, typed just enough to be built safely.

import type { JsonSchema, Scope } from '@paygrid/contracts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface ReferenceObject {
  $ref: string;
  description?: string;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
  style?: 'form' | 'simple' | 'deepObject';
  explode?: boolean;
}

export interface MediaTypeObject {
  schema: JsonSchema;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

/** How an answer's values feed another operation (OpenAPI links: stateful clients and fuzzers follow them). */
export interface LinkObject {
  operationId: string;
  parameters?: Record<string, string>;
  description?: string;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
  links?: Record<string, LinkObject>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  /** The API key scope the operation needs (docs/api.md §2). */
  'x-required-scope': Scope;
  parameters?: (ParameterObject | ReferenceObject)[];
  requestBody?: { required: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject | ReferenceObject>;
  [extension: `x-${string}`]: unknown;
}

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;

/** What a service publishes at `GET /openapi.json`: its operations, merged by the gateway. */
export interface OpenApiFragment {
  openapi: '3.1.0';
  info: { title: string; version: string };
  paths: Record<string, PathItemObject>;
  components: { schemas: Record<string, JsonSchema> };
  /**
   * Every route the service's HTTP server registered, as `METHOD /path` with `{param}`s,
   * documented or not: lets the route-matrix suite prove the document leaves none out.
   */
  'x-registered-routes': string[];
}
