// The composition root every service runs on (libs/platform/src/service.ts): its stop drains in
// the order a replica needs (background work, then HTTP letting the request in flight finish,
// then what requests used, then the runtime's pool), and a start that fails half-way leaves
// nothing open behind it.

import { Controller, Get, Inject } from '@nestjs/common';
import {
  createLogger,
  createService,
  platformTablesMigration,
  readServiceConfig,
  startEmbeddedDatabase,
  type EmbeddedDatabase,
  type ServiceRuntime,
} from '@paygrid/platform';

let database: EmbeddedDatabase;

beforeAll(async () => {
  database = await startEmbeddedDatabase('memory://');
});
afterAll(() => database.close());

const probeConfig = () =>
  readServiceConfig(
    {
      PAYGRID_MODE: 'embedded',
      DATABASE_URL: database.url,
      INTERNAL_SIGNING_SECRET: 'x'.repeat(48),
    },
    'probe',
    0,
  ).config;

/** A part that records its start and stop. */
const recorded = (log: string[], name: string, onStop?: () => void) => ({
  start: () => log.push(`${name} started`),
  stop: () => {
    log.push(`${name} stopped`);
    onStop?.();
  },
});

it('stops background work, then HTTP once the request in flight is answered, then resources, then the pool', async () => {
  const log: string[] = [];
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered = () => {};
  const inHandler = new Promise<void>((resolve) => (entered = resolve));

  @Controller()
  class SlowController {
    @Get('/slow')
    async slow() {
      entered();
      await gate;
      log.push('request answered');
      return { ok: true };
    }
  }

  const service = await createService({
    config: probeConfig(),
    schema: 'probe_stop',
    migrations: [platformTablesMigration('probe_stop')],
    topics: [],
    bus: 'none',
    logger: createLogger('test', 'silent'),
    assemble: () => ({
      controllers: [SlowController],
      http: { internalGuard: false },
      // The request is released only once the background work has stopped: HTTP's close
      // must then wait for its answer before the resources go.
      background: [recorded(log, 'background', () => setTimeout(release, 100))],
      resources: [recorded(log, 'resource')],
      handle: { probe: 'probe' },
    }),
  });
  expect(service.probe).toBe('probe');
  const url = await service.listen(0);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const answer = fetch(`${url}/slow`);
  await inHandler;
  await service.stop();
  const response = await answer;
  expect([response.status, await response.json()]).toEqual([200, { ok: true }]);
  expect(log).toEqual([
    'resource started',
    'background started',
    'background stopped',
    'request answered',
    'resource stopped',
  ]);
  await expect(service.runtime.db.query('select 1')).rejects.toThrow();
});

it('a start that fails once the runtime is up stops its parts and closes the pool', async () => {
  const log: string[] = [];
  let runtime: ServiceRuntime | undefined;

  // Its dependency is provided by nobody: Nest refuses to build the application.
  @Controller()
  class Unresolvable {
    constructor(@Inject('nobody provides this') readonly missing: unknown) {}
  }

  await expect(
    createService({
      config: probeConfig(),
      schema: 'probe_fail',
      migrations: [platformTablesMigration('probe_fail')],
      topics: [],
      bus: 'none',
      logger: createLogger('test', 'silent'),
      assemble: (started) => {
        runtime = started;
        return {
          controllers: [Unresolvable],
          background: [recorded(log, 'background')],
          resources: [recorded(log, 'resource')],
          handle: {},
        };
      },
    }),
  ).rejects.toThrow(/nobody provides this/);
  // Never started, but stopped all the same (each part's stop is safe before its start).
  expect(log).toEqual(['background stopped', 'resource stopped']);
  await expect(runtime?.db.query('select 1')).rejects.toThrow();
});
