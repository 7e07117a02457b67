// Builds a service's OpenAPI fragment from its NestJS controllers: the route (path, method,
// status), @RequireScope, the @Body/@Query/@Param DTOs and @Operation, all read from the
// metadata NestJS and class-validator already keep, so nothing is declared twice.

import 'reflect-metadata';
import { RequestMethod, type Type } from '@nestjs/common';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import {
  API_SCHEMAS,
  ERROR_CATALOGUE,
  errorResponseRef,
  SCHEMA_REF_PREFIX,
  schemaRef,
  type ApiSchemaName,
  type JsonSchema,
  type Scope,
} from '@paygrid/contracts';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from '../http/context';
import { ListQuery } from '../http/pagination';
import { OPERATION_METADATA, type OperationSpec } from './operation.decorator';
import type {
  HttpMethod,
  OpenApiFragment,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
} from './openapi.types';
import { DtoSchemas, type DtoClass } from './request-schemas';

/** The public API lives under /v1; everything else (health, pages, this document) is not in it. */
const API_PATH = /^\/v1\//;

interface RouteArg {
  index: number;
  data?: unknown;
}

/** `v1/merchants` + `:id` -> `/v1/merchants/{id}`. */
function joinPath(...parts: unknown[]): string {
  if (parts.some((part) => Array.isArray(part)))
    throw new Error(`A route with several paths (${JSON.stringify(parts)}) is not supported.`);
  const segments = parts
    .filter((part): part is string => typeof part === 'string')
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .map((segment) => segment.replace(/^:(\w+)$/, '{$1}'));
  return `/${segments.join('/')}`;
}

/** `payment-links` -> `Payment links`, the tag of every operation under /v1/payment-links. */
export function tagOf(path: string): string {
  const prefix = path.split('/')[2] ?? '';
  const words = prefix.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const camel = (value: string) => value.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** The HTTP statuses an operation can answer with, besides success. */
function errorStatuses(options: {
  method: HttpMethod;
  hasBody: boolean;
  hasQuery: boolean;
  hasPathParams: boolean;
  paginated: boolean;
  spec: OperationSpec;
}): number[] {
  const statuses = new Set<number>([401, 403, 429, 500, 503, 504]);
  // Every POST takes the Idempotency-Key header, which can be malformed (400 parameter_invalid).
  if (options.hasBody || options.hasQuery || options.method === 'post') statuses.add(400);
  // A body can name other objects (customer, test_clock, merchant, transaction...): one that
  // does not exist for this account and mode is 404 resource_missing, like a path id.
  if (options.hasPathParams || options.paginated || options.hasBody) statuses.add(404);
  if (options.hasBody) [413, 415].forEach((s) => statuses.add(s));
  // Idempotency-Key: 409 while the first request runs, 422 when reused for another request.
  if (options.method === 'post') [409, 422].forEach((s) => statuses.add(s));
  for (const code of options.spec.errors ?? []) statuses.add(ERROR_CATALOGUE[code].status);
  return [...statuses].sort((a, b) => a - b);
}

/** Every `#/components/schemas/...` name a schema refers to. */
function refsOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => refsOf(item, into));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(SCHEMA_REF_PREFIX))
        into.add(item.slice(SCHEMA_REF_PREFIX.length));
      else refsOf(item, into);
    }
  }
  return into;
}

function queryParameters(schema: JsonSchema): ParameterObject[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    const isObject = rest.$ref !== undefined || rest.type === 'object';
    return {
      name,
      in: 'query' as const,
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      // `created[gt]=...`: nested query parameters, as the qs parser reads them.
      ...(isObject ? { style: 'deepObject' as const, explode: true } : {}),
    };
  });
}

interface Handler {
  controller: Type;
  name: string;
  fn: object;
}

function handlersOf(controller: Type): Handler[] {
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .filter((name) => name !== 'constructor')
    .map((name) => ({ controller, name, fn: proto[name] as object }))
    .filter((h) => typeof h.fn === 'function' && Reflect.getMetadata(METHOD_METADATA, h.fn) !== undefined);
}

function buildOperation(handler: Handler, path: string, method: HttpMethod, schemas: DtoSchemas) {
  const { controller, name, fn } = handler;
  const where = `${controller.name}.${name} (${method.toUpperCase()} ${path})`;
  const spec = Reflect.getMetadata(OPERATION_METADATA, fn) as OperationSpec | undefined;
  if (!spec) throw new Error(`${where} is an API route without @Operation: document it.`);
  const scope = (Reflect.getMetadata(REQUIRED_SCOPE, fn) ??
    Reflect.getMetadata(REQUIRED_SCOPE, controller)) as Scope | undefined;
  if (!scope) throw new Error(`${where} has no @RequireScope.`);
  if (!(spec.response in API_SCHEMAS)) throw new Error(`${where}: unknown response schema ${spec.response}.`);

  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, RouteArg>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ?? []) as DtoClass[];
  const parameters: ParameterObject[] = [];
  let body: JsonSchema | undefined;
  let bodyRequired = false;
  let paginated = false;
  for (const [key, arg] of Object.entries(args)) {
    const kind = Number(key.split(':')[0]);
    const type = types[arg.index];
    if (kind === RouteParamtypes.PARAM && typeof arg.data === 'string') {
      parameters.push({
        name: arg.data,
        in: 'path',
        required: true,
        description: 'The id of the object.',
        schema: { type: 'string' },
      });
    } else if (kind === RouteParamtypes.QUERY) {
      if (typeof arg.data === 'string') {
        parameters.push({ name: arg.data, in: 'query', required: false, schema: { type: 'string' } });
      } else if (type && type !== Object) {
        parameters.push(...queryParameters(schemas.inline(type)));
        paginated ||= type === ListQuery || type.prototype instanceof ListQuery;
      }
    } else if (kind === RouteParamtypes.BODY) {
      if (arg.data !== undefined || !type || type === Object)
        throw new Error(`${where}: @Body() must take the whole body as a DTO class.`);
      body = schemas.ref(type);
      bodyRequired =
        (schemas.schemas[String(body.$ref).slice(SCHEMA_REF_PREFIX.length)]?.required ?? []).length > 0;
    }
  }
  parameters.sort((a, b) => (a.in === b.in ? 0 : a.in === 'path' ? -1 : 1));

  const declared = path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? [];
  const documented = parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (declared.sort().join() !== documented.sort().join())
    throw new Error(`${where}: path parameters ${declared} are not all taken with @Param(name).`);

  const status =
    (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ?? (method === 'post' ? 201 : 200);
  const responses: Record<string, ResponseObject | ReferenceObject> = {
    [status]: {
      description: API_SCHEMAS[spec.response].description ?? spec.response,
      content: spec.produces
        ? { [spec.produces]: { schema: producedSchema(spec.produces, spec.response) } }
        : { 'application/json': { schema: schemaRef(spec.response) } },
    },
  };
  const statuses = errorStatuses({
    method,
    hasBody: body !== undefined,
    hasQuery: parameters.some((p) => p.in === 'query'),
    hasPathParams: declared.length > 0,
    paginated,
    spec,
  });
  for (const code of statuses) responses[code] = errorResponseRef(code);

  const operation: OperationObject = {
    operationId: spec.operationId ?? `${camel(path.split('/')[2] ?? '')}.${name}`,
    summary: spec.summary,
    description: spec.description,
    tags: [tagOf(path)],
    'x-required-scope': scope,
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? { requestBody: { required: bodyRequired, content: { 'application/json': { schema: body } } } }
      : {}),
    responses,
  };
  return operation;
}

/**
 * A body that is not JSON. A PDF or XML rendering is binary. A server-sent event stream never
 * ends, so its `schema` describes one event (as OpenAPI 3.2's `itemSchema` does, and as
 * Schemathesis reads it): the `id`, `event` and `data` fields of a frame, `data` being the
 * response schema as JSON (`contentMediaType`/`contentSchema`, JSON Schema 2020-12). Typed as a
 * binary string, each event the stream sent failed the document (Schemathesis ST108).
 */
function producedSchema(mediaType: string, response: ApiSchemaName): JsonSchema {
  if (mediaType !== 'text/event-stream') return { type: 'string', format: 'binary' };
  return {
    type: 'object',
    description: `One event of the stream: \`id\`, \`event\` and \`data\`, the ${response} object as JSON.`,
    properties: {
      id: {
        type: 'string',
        description: 'The id of the object in `data`; `Last-Event-ID` resumes after it.',
      },
      event: { type: 'string', description: 'The `type` of the object in `data`.' },
      data: {
        type: 'string',
        contentMediaType: 'application/json',
        contentSchema: schemaRef(response),
      },
      retry: { type: 'integer', minimum: 0, description: 'Reconnection delay in milliseconds.' },
    },
    required: ['id', 'event', 'data'],
    additionalProperties: false,
  };
}

/**
 * The fragment of the public API one service serves: every /v1 route of `controllers`, each
 * of which must carry @Operation and @RequireScope (a route left undocumented is an error,
 * not a silent gap). `registeredRoutes` is what the HTTP server actually has.
 */
export function buildOpenApiFragment(
  controllers: readonly Type[],
  options: { title: string; version?: string; registeredRoutes?: readonly string[] },
): OpenApiFragment {
  const schemas = new DtoSchemas();
  const paths: OpenApiFragment['paths'] = {};
  for (const controller of controllers) {
    for (const handler of handlersOf(controller)) {
      const path = joinPath(
        Reflect.getMetadata(PATH_METADATA, controller),
        Reflect.getMetadata(PATH_METADATA, handler.fn),
      );
      if (!API_PATH.test(path)) continue;
      if (Reflect.getMetadata(PUBLIC_ROUTE, handler.fn) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller))
        continue;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler.fn) as RequestMethod;
      const method = RequestMethod[requestMethod].toLowerCase() as HttpMethod;
      const item = (paths[path] ??= {});
      if (item[method]) throw new Error(`${method.toUpperCase()} ${path} is declared twice.`);
      item[method] = buildOperation(handler, path, method, schemas);
    }
  }

  // Response schemas (and what they refer to) come from @paygrid/contracts.
  const components: Record<string, JsonSchema> = { ...schemas.schemas };
  const pending = [...refsOf(paths), ...refsOf(components)];
  while (pending.length) {
    const name = pending.pop() as string;
    if (components[name]) continue;
    const shared = (API_SCHEMAS as Record<string, JsonSchema>)[name as ApiSchemaName];
    if (!shared) throw new Error(`The OpenAPI fragment refers to an unknown schema: ${name}.`);
    components[name] = shared;
    pending.push(...refsOf(shared));
  }

  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version ?? '1' },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
    },
    'x-registered-routes': [...(options.registeredRoutes ?? [])].sort(),
  };
}
