// How the gateway reaches a service: over HTTP (undici connection pools) when the services
// run as their own processes, or by in-process injection when they share the gateway's
// process (the embedded default). Both answer the same way, errors included.

import type { ServiceName } from '@paygrid/contracts';
import { ApiError } from '@paygrid/platform';
import { Pool, errors as undiciErrors } from 'undici';

export interface UpstreamRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Upstream {
  request(service: ServiceName, request: UpstreamRequest): Promise<UpstreamResponse>;
  health(service: ServiceName): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export class HttpUpstream implements Upstream {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(
    baseUrls: Record<ServiceName, string>,
    private readonly timeoutMs: number,
  ) {
    for (const [name, url] of Object.entries(baseUrls) as [ServiceName, string][]) {
      this.pools.set(name, new Pool(url, { connections: 128, pipelining: 1, keepAliveTimeout: 30_000 }));
    }
  }

  async request(service: ServiceName, request: UpstreamRequest): Promise<UpstreamResponse> {
    const pool = this.pools.get(service);
    if (!pool) throw new ApiError('upstream_unavailable', 'The service for this route is not configured.');
    try {
      const response = await pool.request({
        path: request.url,
        method: request.method as 'GET',
        headers: request.headers,
        body: request.body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const body = Buffer.from(await response.body.arrayBuffer());
      return { status: response.statusCode, headers: response.headers, body };
    } catch (error) {
      if (
        error instanceof undiciErrors.HeadersTimeoutError ||
        error instanceof undiciErrors.BodyTimeoutError
      ) {
        throw new ApiError('upstream_timeout', 'The service did not answer in time.');
      }
      throw new ApiError('upstream_unavailable', 'The service for this route is unavailable; retry shortly.');
    }
  }

  async health(service: ServiceName): Promise<{ status: number; body: unknown }> {
    const response = await this.request(service, { method: 'GET', url: '/ready', headers: {} });
    return { status: response.status, body: JSON.parse(response.body.toString('utf8')) };
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}

/** The part of a Fastify instance injection needs (light-my-request). */
export interface Injectable {
  inject(options: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: Buffer;
  }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    rawPayload: Buffer;
  }>;
}

export class InjectUpstream implements Upstream {
  constructor(
    private readonly services: Record<ServiceName, Injectable>,
    private readonly timeoutMs: number,
  ) {}

  async request(service: ServiceName, request: UpstreamRequest): Promise<UpstreamResponse> {
    const target = this.services[service];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ApiError('upstream_timeout', 'The service did not answer in time.')),
        this.timeoutMs,
      );
    });
    try {
      const response = await Promise.race([
        target.inject({
          method: request.method,
          url: request.url,
          headers: request.headers,
          payload: request.body,
        }),
        timeout,
      ]);
      const headers: Record<string, string | string[] | undefined> = {};
      for (const [name, value] of Object.entries(response.headers))
        headers[name] = typeof value === 'number' ? String(value) : value;
      return { status: response.statusCode, headers, body: response.rawPayload };
    } finally {
      clearTimeout(timer);
    }
  }

  async health(service: ServiceName): Promise<{ status: number; body: unknown }> {
    const response = await this.request(service, { method: 'GET', url: '/ready', headers: {} });
    return { status: response.status, body: JSON.parse(response.body.toString('utf8')) };
  }

  async close(): Promise<void> {}
}
