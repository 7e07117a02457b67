// A stopping server closes every connection that has no request in flight, and each other
// one as soon as its answer is sent. Node's own close() (through Fastify's) closes only the
// connections idle at that moment and then waits for the rest: a connection a client opened
// and never used (a browser's preconnect, an HTTP client's spare socket) or one whose
// request ends after close() began stayed open until the keep-alive time-out, 72 s, and the
// process waited on it (the gateway's stop took 70 s after an event stream, far past a
// Kubernetes pod's default 30 s grace). tests/unit/graceful-close.test.ts.

import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Tracks `server`'s connections; the returned function closes them as described above. */
export function trackConnections(server: Server): () => void {
  const inFlight = new Map<Socket, number>();
  const answering = new Set<ServerResponse>();
  let closing = false;
  /** The client learns not to send another request on this connection. */
  const last = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  };
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
    // Accepted while closing (before the listener stopped): nothing will be served on it.
    if (closing) socket.destroySoon();
  });
  server.on('request', (request: { socket: Socket }, response: ServerResponse) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    answering.add(response);
    if (closing) last(response);
    response.once('close', () => {
      answering.delete(response);
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (closing && left === 0) socket.destroySoon();
    });
  });
  return () => {
    closing = true;
    answering.forEach(last);
    for (const [socket, count] of inFlight) if (count === 0) socket.destroySoon();
  };
}
