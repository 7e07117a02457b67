// The one composition root of a service (payments, invoicing, webhooks, gateway): its runtime
// (database migrated, bus, outbox relay, inbox), its Nest application (HTTP under Fastify and
// the consumers on InboxTransport), the work that runs beside them, and one stop in the order
// that lets a replica drain. An app declares only what is its own (ServiceAssembly); the
// embedded runner composes four of these in one process and passes the shared pieces
// (ServiceDeps: the bus, the metrics registry, the clock, a logger).

import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { EventBus } from './bus/bus';
import type { Clock } from './clock';
import { createHttpApp, RuntimeModule, type HttpAppOptions } from './http/bootstrap';
import type { Logger } from './logging';
import { InboxTransport } from './messaging/inbox-transport';
import type { Metrics } from './observability/metrics';
import { startRuntime, type RuntimeOptions, type ServiceRuntime } from './runtime';

/** What the embedded runner shares between the services of its process (absent: their own). */
export interface ServiceDeps {
  bus?: EventBus;
  logger?: Logger;
  clock?: Clock;
  metrics?: Metrics;
}

/**
 * Something that runs beside HTTP: a timer (Periodic), a worker, a client. `start()`, when
 * present, runs once HTTP and the consumers are up; a bare function is a `stop` alone.
 */
export type ServicePart = { start?(): unknown; stop(): unknown } | (() => unknown);

/** What a service is made of, built on its runtime. */
export interface ServiceAssembly<P extends object> {
  controllers: Type[];
  providers?: Provider[];
  /** The platform's routes: GET /health (and its details), GET /openapi.json. */
  platformRoutes?: Parameters<typeof RuntimeModule.forRoot>[1];
  http?: HttpAppOptions;
  /**
   * Work beside HTTP (timers, workers, long-lived responses such as the event streams): stopped
   * first, in this order, so that no pass is cut by the closing pool and no open stream keeps
   * HTTP's close waiting (http/graceful-close.ts).
   */
  background?: ServicePart[];
  /**
   * What requests still in flight use (the mail queue, the gateway's upstream pools and Redis
   * clients): stopped once HTTP has closed, in this order, before the runtime.
   */
  resources?: ServicePart[];
  /** What the service's handle shows besides app and runtime (tests and the embedded runner use it). */
  handle: P;
}

export interface ServiceDefinition<P extends object> extends RuntimeOptions {
  /** Builds the service's own parts; runs after the migrations, before HTTP exists. */
  assemble(runtime: ServiceRuntime): ServiceAssembly<P> | Promise<ServiceAssembly<P>>;
}

export interface ServiceHandle {
  app: NestFastifyApplication;
  runtime: ServiceRuntime;
  /** Set by listen(): where the service answers (loopback when it listens on every interface). */
  url?: string;
  /** Starts taking HTTP requests; resolves to the service's URL. */
  listen(port: number, host?: string): Promise<string>;
  /** Background, HTTP (draining its connections), resources, then the runtime (relay, bus, pool). */
  stop(): Promise<void>;
}

export type Service<P extends object = object> = ServiceHandle & P;

/** One Nest module class for every service; each application is its own container. */
@Module({})
class ServiceModule {}

/** Connections waiting to be accepted (Node's default is 511). */
const LISTEN_BACKLOG = 4096;

const startOf = (part: ServicePart) => (typeof part === 'function' ? undefined : part);
const stopOf = (part: ServicePart) => (typeof part === 'function' ? part() : part.stop());

export async function createService<P extends object>(definition: ServiceDefinition<P>): Promise<Service<P>> {
  const { assemble, ...runtimeOptions } = definition;
  const runtime = await startRuntime(runtimeOptions);
  let app: NestFastifyApplication | undefined;
  let assembly: ServiceAssembly<P> | undefined;
  // Every part's stop is safe before its start: a failed start stops them all the same.
  const stop = async () => {
    for (const part of assembly?.background ?? []) await stopOf(part);
    await app?.close();
    for (const part of assembly?.resources ?? []) await stopOf(part);
    await runtime.stop();
  };
  try {
    assembly = await assemble(runtime);
    const module: DynamicModule = {
      module: ServiceModule,
      imports: [RuntimeModule.forRoot(runtime, assembly.platformRoutes)],
      controllers: assembly.controllers,
      providers: assembly.providers ?? [],
    };
    app = await createHttpApp(module, runtime, assembly.http);
    // The consumers: the app's @EventPattern handlers, each inside its inbox transaction.
    if (runtime.bus.transport !== 'none') {
      app.connectMicroservice<MicroserviceOptions>({ strategy: new InboxTransport(runtime.consumer) });
      await app.startAllMicroservices();
    }
    for (const part of [...(assembly.resources ?? []), ...(assembly.background ?? [])]) {
      startOf(part)?.start?.();
    }
  } catch (error) {
    // A failed start (a bad migration, a module that cannot resolve) leaves no pool or timer.
    await stop().catch(() => undefined);
    throw error;
  }
  const handle: ServiceHandle = {
    app,
    runtime,
    async listen(port, host = '127.0.0.1') {
      const nest = handle.app;
      // A burst of new connections (clients opening sockets in an overload) waits in the
      // kernel's accept queue rather than having its SYNs dropped and retried a second or
      // more later: Node's default backlog is 511; the kernel caps it at net.core.somaxconn.
      await nest.listen({ port, host, backlog: LISTEN_BACKLOG });
      const address = nest.getHttpServer().address();
      const bound = typeof address === 'object' && address ? address.port : port;
      const shown =
        host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      handle.url = `http://${shown}:${bound}`;
      return handle.url;
    },
    stop,
  };
  return Object.assign(handle, assembly.handle);
}
