// Remembers every route a service's Fastify instance registers (NestJS controllers and plain
// Fastify routes alike), so the OpenAPI fragment can say what the server really serves.

import type { FastifyInstance } from 'fastify';

const registered = new WeakMap<FastifyInstance, Set<string>>();

/** Call before any route is registered (createHttpApp does). */
export function trackRoutes(fastify: FastifyInstance): void {
  const routes = new Set<string>();
  registered.set(fastify, routes);
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    // HEAD routes are Fastify's automatic twins of GET routes.
    for (const method of methods)
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.add(`${method} ${path}`);
  });
}

/** `METHOD /path` of every route registered so far, `{param}` style. */
export function registeredRoutes(fastify: FastifyInstance): string[] {
  return [...(registered.get(fastify) ?? [])].sort();
}
