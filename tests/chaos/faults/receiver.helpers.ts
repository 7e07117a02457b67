// The webhook receivers of the chaos run: one that answers, one that always hangs, and one
// that hangs while its fault lasts (responses parked until released). Each records the
// webhook-id of what it accepted, for the delivery invariant.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export class Receiver {
  readonly ids: string[] = [];
  hanging = false;
  private server!: Server;
  private readonly parked = new Set<ServerResponse>();
  url = '';

  constructor(private readonly alwaysHang = false) {}

  async start(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.resume();
      request.on('end', () => {
        if (this.alwaysHang || this.hanging) {
          this.parked.add(response);
          response.on('close', () => this.parked.delete(response));
          return;
        }
        const id = request.headers['webhook-id'];
        if (typeof id === 'string') this.ids.push(id);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  }

  release(): void {
    for (const response of this.parked) response.destroy();
    this.parked.clear();
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
