// Security headers on every gateway response (API, admin, health, hosted pages, errors):
// no MIME sniffing, no referrer, no framing, no cross-origin embedding, HSTS when served over
// https. JSON answers also get `Cache-Control: no-store` (they carry account data and, once,
// key secrets) and a CSP that allows nothing. An HTML page keeps the CSP and Cache-Control
// its service set (pages need scripts and styles); a page without one only gets
// `frame-ancestors 'none'`, which forbids framing and restricts nothing the page loads.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const ALWAYS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

export const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";
export const PAGE_DEFAULT_CSP = "frame-ancestors 'none'";
/** One year, the usual preload-grade value; no includeSubDomains: other hosts of the operator's domain are theirs. */
export const HSTS = 'max-age=31536000';

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/i;

export function securityHeaders(options: { https: boolean }) {
  const always = options.https ? Object.assign({}, ALWAYS, { 'strict-transport-security': HSTS }) : ALWAYS;
  return (
    _request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ): void => {
    void reply.headers(always);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && JSON_TYPE.test(type)) {
      if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
      if (!reply.hasHeader('content-security-policy')) void reply.header('content-security-policy', JSON_CSP);
    } else if (!reply.hasHeader('content-security-policy')) {
      void reply.header('content-security-policy', PAGE_DEFAULT_CSP);
    }
    done(null, payload);
  };
}

/** Adds the headers to every response of `fastify` (register before the routes). */
export function registerSecurityHeaders(fastify: FastifyInstance, options: { publicBaseUrl: string }): void {
  fastify.addHook('onSend', securityHeaders({ https: options.publicBaseUrl.startsWith('https:') }));
}
