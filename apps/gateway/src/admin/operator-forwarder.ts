// How the admin API asks a service to act for the operator: the gateway owns no service
// data, so it forwards over the Upstream with an operator context (signed across processes,
// handed over in process), which only routes marked @OperatorOnly() accept.

import type { OperatorContext, ServiceName } from '@paygrid/contracts';
import type { Upstream, UpstreamResponse } from '../routing/upstream';

export class OperatorForwarder {
  constructor(private readonly upstream: Upstream) {}

  post(service: ServiceName, url: string, body: unknown, requestId: string): Promise<UpstreamResponse> {
    return this.send(service, 'POST', url, requestId, Buffer.from(JSON.stringify(body ?? {})));
  }

  get(service: ServiceName, url: string, requestId: string): Promise<UpstreamResponse> {
    return this.send(service, 'GET', url, requestId);
  }

  private send(
    service: ServiceName,
    method: 'GET' | 'POST',
    url: string,
    requestId: string,
    body?: Buffer,
  ): Promise<UpstreamResponse> {
    const context: OperatorContext = { kind: 'operator', request_id: requestId, issued_at: Date.now() };
    return this.upstream.request(service, {
      method,
      url,
      headers: body
        ? { 'request-id': requestId, 'content-type': 'application/json' }
        : { 'request-id': requestId },
      context,
      ...(body ? { body } : {}),
    });
  }
}
