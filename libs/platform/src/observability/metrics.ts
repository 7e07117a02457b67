// Prometheus metrics of one process (prom-client): the process's own (CPU, memory, event-loop
// delay, GC), every HTTP request by route template and status, and gauges a service reads
// from its database when scraped (outbox backlog, webhook queue depth). One registry per
// process: in the embedded default the four apps share it and `service` tells them apart.
// Served on a port of its own (METRICS_PORT), never on the public API port: scrape it from
// inside the deployment (docs/observability.md lists every series).
//
// Labels are bounded: a route template (`/v1/invoices/:id`), never a raw path or an id, and
// no account ids.

import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: where an API answer usually falls, out to the gateway's 30 s time-out. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type GaugeCollector = (set: (labels: Record<string, string>, value: number) => void) => Promise<void>;

export class Metrics {
  readonly registry = new Registry();
  private readonly collectors = new Map<string, GaugeCollector[]>();
  private readonly instruments = new Map<string, Counter<string> | Histogram<string>>();
  readonly httpRequests: Counter<'service' | 'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'service' | 'method' | 'route' | 'status'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'paygrid_http_requests_total',
      help: 'HTTP requests answered, by service, method, route template and status.',
      labelNames: ['service', 'method', 'route', 'status'],
      registers: [this.registry],
    });
    this.httpDuration = new Histogram({
      name: 'paygrid_http_request_duration_seconds',
      help: 'Time from the request to its answer, by service, method, route template and status.',
      labelNames: ['service', 'method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers: [this.registry],
    });
  }

  /** Records one answered request (called from each app's onResponse hook). */
  observeHttp(service: string, method: string, route: string, status: number, seconds: number): void {
    const labels = { service, method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /**
   * A counter, registered once per name: in the embedded default several apps ask for the
   * same series and tell themselves apart by their labels.
   */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    const known = this.instruments.get(name);
    if (known) return known as Counter<L>;
    const counter = new Counter<L>({ name, help, labelNames: labelNames as L[], registers: [this.registry] });
    this.instruments.set(name, counter as Counter<string>);
    return counter;
  }

  /** A histogram (seconds), registered once per name like `counter`. */
  histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[] = HTTP_BUCKETS,
  ): Histogram<L> {
    const known = this.instruments.get(name);
    if (known) return known as Histogram<L>;
    const histogram = new Histogram<L>({
      name,
      help,
      labelNames: labelNames as L[],
      buckets,
      registers: [this.registry],
    });
    this.instruments.set(name, histogram as Histogram<string>);
    return histogram;
  }

  /**
   * A gauge whose value is read when Prometheus scrapes (a bounded query); `collect` sets it
   * through the `set` it is given. A failing read leaves the last value and is not fatal.
   */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (set: (labels: Partial<Record<L, string>>, value: number) => void) => Promise<void>,
  ): void {
    const known = this.collectors.get(name);
    // The embedded default: a second service reports the same series with its own labels.
    if (known) {
      known.push(collect as GaugeCollector);
      return;
    }
    const collectors: GaugeCollector[] = [collect as GaugeCollector];
    this.collectors.set(name, collectors);
    new Gauge<L>({
      name,
      help,
      labelNames: labelNames as L[],
      registers: [this.registry],
      async collect() {
        for (const read of collectors) {
          await read((labels, value) => this.set(labels as Partial<Record<L, string>>, value)).catch(
            () => undefined,
          );
        }
      },
    });
  }

  /** The exposition text. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Serves `GET /metrics` on its own port (0: a free one); answers the listening server. */
  async listen(port: number, host: string): Promise<Server> {
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      this.render().then(
        ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
        () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return server;
  }
}
