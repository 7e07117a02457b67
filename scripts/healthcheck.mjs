#!/usr/bin/env node
// The container's health check (Dockerfile HEALTHCHECK): the app's readiness, `GET /ready` on
// its own port (database and bus reachable), within 3 seconds. Exit 0 when ready, 1 otherwise.

const port = process.env.PORT ?? '3000';
const timer = setTimeout(() => process.exit(1), 3000);
try {
  const response = await fetch(`http://127.0.0.1:${port}/ready`);
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
} finally {
  clearTimeout(timer);
}
