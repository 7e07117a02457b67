// `paygrid logs tail`: the account's API requests as they are answered, one line each
// (time, method, path, status, latency, request id), from GET /v1/request-logs/stream.

import type { Paygrid } from '@paygrid/sdk';

export interface TailOptions {
  signal?: AbortSignal;
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
}

export async function tailLogs(
  paygrid: Pick<Paygrid, 'streamRequestLogs'>,
  options: TailOptions,
): Promise<number> {
  const stream = paygrid.streamRequestLogs({
    signal: options.signal,
    onConnect: () => options.err('Ready: showing API requests as they happen (Ctrl-C to stop).'),
  });
  for await (const request of stream) {
    options.out(
      options.json
        ? JSON.stringify(request)
        : `${request.created_at}  ${request.method.padEnd(6)} ${request.path}  ${request.status}  ${request.duration_ms} ms  ${request.id}`,
    );
  }
  return 0;
}
