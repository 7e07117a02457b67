// How the admin API asks a service to act for the operator: the gateway owns no service
// data, so it forwards over the Upstream with a signed operator context, which only routes
// marked @OperatorOnly() accept.

import type { OperatorContext, ServiceName } from '@paygrid/contracts';
import { signContext } from '@paygrid/platform';
import type { Upstream, UpstreamResponse } from '../routing/upstream';

export class OperatorForwarder {
  constructor(
    private readonly upstream: Upstream,
    private readonly internalSecret: string,
  ) {}

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
      headers: {
        ...signContext(this.internalSecret, context, method, url),
        'request-id': requestId,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body } : {}),
    });
  }
}
