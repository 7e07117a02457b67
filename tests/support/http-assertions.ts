// Assertions on the gateway's answers shared by the protection suites.

import type { ApiResponse } from './platform';

/** Security headers on every gateway response. */
export const BASELINE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

/** ...and on every JSON API response. */
export const JSON_HEADERS = {
  ...BASELINE_HEADERS,
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

export function headersOf(response: ApiResponse): Record<string, string> {
  return Object.fromEntries(response.headers.entries());
}

/** The error envelope with `code`, a request id, and the same id in the Request-Id header. */
export function expectEnvelope(response: ApiResponse, status: number, code: string): void {
  expect([response.status, response.body?.error?.code]).toEqual([status, code]);
  expect(response.body.error.request_id).toMatch(/^req_/);
  expect(response.headers.get('request-id')).toBe(response.body.error.request_id);
}
