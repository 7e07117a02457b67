// Assembles the webhooks service on the platform's composition root (createService): its
// migrations (own schema), the event log, its controllers (HTTP, and the event log consumer: an
// @EventPattern handler on InboxTransport), the delivery worker and the event log's pruner.

import { EVENT_TOPICS } from '@paygrid/contracts';
import {
  createService,
  idempotencyMigration,
  Periodic,
  platformTablesMigration,
  type Metrics,
  type Service,
  type ServiceDeps,
  type ServiceRuntime,
} from '@paygrid/platform';
import { blockListOf, type WebhooksConfig } from './config';
import { DeliveryWorker } from './delivery/worker';
import { EndpointsController } from './endpoints/endpoints.controller';
import { EndpointsService } from './endpoints/endpoints.service';
import { EventLog } from './events/event-log';
import { EventLogConsumer } from './events/event-log.consumer';
import { EventsController } from './events/events.controller';
import { EventStream, type EventStreamOptions } from './events/event-stream';
import { Events1700000000400 } from './migrations/1700000000400-events';
import { WebhookEndpoints1700000000410 } from './migrations/1700000000410-webhook-endpoints';
import { DeliveriesLeased1700000000420 } from './migrations/1700000000420-deliveries-leased';
import { TraceContext1700000000430 } from './migrations/1700000000430-trace-context';
import { EventsStreamPosition1700000000435 } from './migrations/1700000000435-events-stream-position';
import { RequestLog1700000000440 } from './migrations/1700000000440-request-log';
import { DeliveriesClaimable1700000000450 } from './migrations/1700000000450-deliveries-claimable';
import { DeliveriesOrderObjects1700000000460 } from './migrations/1700000000460-deliveries-order-objects';
import { RequestLog } from './request-log/request-log';
import { RequestLogIngestController, RequestLogsController } from './request-log/request-log.controller';

export const WEBHOOKS_MIGRATIONS = [
  platformTablesMigration('webhooks'),
  idempotencyMigration('webhooks'),
  Events1700000000400,
  WebhookEndpoints1700000000410,
  DeliveriesLeased1700000000420,
  TraceContext1700000000430,
  EventsStreamPosition1700000000435,
  RequestLog1700000000440,
  DeliveriesClaimable1700000000450,
  DeliveriesOrderObjects1700000000460,
];

export type WebhooksService = Service<{ eventLog: EventLog; worker: DeliveryWorker }>;

export function createWebhooks(
  config: WebhooksConfig,
  options: ServiceDeps & {
    /** Tests: shorter event-stream connections and polls. */
    eventStream?: EventStreamOptions;
  } = {},
): Promise<WebhooksService> {
  const { eventStream, ...deps } = options;
  return createService({
    config,
    schema: 'webhooks',
    migrations: WEBHOOKS_MIGRATIONS,
    topics: EVENT_TOPICS,
    ...deps,
    assemble(runtime) {
      const eventLog = new EventLog(runtime.db, runtime.clock);
      // Sandbox endpoints: private targets only when the operator allows them, and then loopback
      // plus the operator's list (WEBHOOKS_PRIVATE_TARGETS); live endpoints: public https only.
      const sandboxTargets = {
        allowPrivate: config.allowPrivateTargets,
        privateAllowList: blockListOf(config.privateTargets),
      };
      const worker = new DeliveryWorker(
        runtime.db,
        runtime.clock,
        runtime.logger,
        sandboxTargets,
        config.maxInFlight,
      );
      registerQueueGauges(runtime);
      observeAttempts(runtime.metrics, worker);
      eventLog.onDeliveries = worker.wake;
      eventLog.lessee = worker;
      const streams = new EventStream(runtime.db, eventStream);
      eventLog.onRecorded = streams.wake;
      const endpoints = new EndpointsService(
        runtime.db,
        runtime.clock,
        sandboxTargets,
        worker.wake,
        streams.wake,
      );
      const requestLog = new RequestLog(runtime.db, runtime.clock);
      const pruner = new Periodic(
        'event log prune',
        3_600_000,
        () => eventLog.prune(runtime.clock.now()),
        runtime.logger,
      );
      return {
        // EventLogConsumer: @EventPattern handlers on InboxTransport, no HTTP routes.
        controllers: [
          EventsController,
          EndpointsController,
          RequestLogsController,
          RequestLogIngestController,
          EventLogConsumer,
        ],
        providers: [
          { provide: EventLog, useValue: eventLog },
          { provide: EndpointsService, useValue: endpoints },
          { provide: EventStream, useValue: streams },
          { provide: RequestLog, useValue: requestLog },
        ],
        // The open event and request-log streams end before HTTP closes, which would wait on them.
        background: [pruner, worker, () => streams.close(), () => requestLog.close()],
        handle: { eventLog, worker },
      };
    },
  });
}

/** What an operator scales delivery on (the chart's autoscaler reads it), and disabled endpoints. */
function registerQueueGauges(runtime: ServiceRuntime): void {
  runtime.metrics.gauge(
    'paygrid_webhook_queue_depth',
    'Webhook deliveries pending and due now (scale the webhooks service on it).',
    [],
    async (set) => {
      const [row] = await runtime.db.query<{ n: string }>(
        `select count(*)::text as n from webhooks.deliveries where status = 'pending' and next_attempt_at <= now()`,
      );
      set({}, Number(row.n));
    },
  );
  runtime.metrics.gauge(
    'paygrid_webhook_endpoints_disabled',
    'Webhook endpoints disabled (after 5 days of failures, or a 410).',
    [],
    async (set) => {
      const [row] = await runtime.db.query<{ n: string }>(
        `select count(*)::text as n from webhooks.endpoints where status = 'disabled'`,
      );
      set({}, Number(row.n));
    },
  );
}

/**
 * Attempts by endpoint class (`mode`: live or test endpoints; never the endpoint or account)
 * and outcome: `succeeded` (2xx), `failed_status` (any other answer), `failed_connection` (no
 * answer: refused, reset, time-out, blocked address). Success ratio and latency follow.
 */
function observeAttempts(metrics: Metrics, worker: DeliveryWorker): void {
  const attempts = metrics.counter(
    'paygrid_webhook_attempts_total',
    'Webhook delivery attempts by endpoint class (mode) and outcome.',
    ['mode', 'outcome'],
  );
  const latency = metrics.histogram(
    'paygrid_webhook_delivery_duration_seconds',
    "Time from the POST to the endpoint's answer (or failure), by endpoint class (mode) and outcome.",
    ['mode', 'outcome'],
  );
  worker.onAttempt = (livemode, result) => {
    const status = result.statusCode;
    const outcome =
      status === undefined
        ? 'failed_connection'
        : status >= 200 && status < 300
          ? 'succeeded'
          : 'failed_status';
    const labels = { mode: livemode ? 'live' : 'test', outcome };
    attempts.inc(labels);
    latency.observe(labels, result.latencyMs / 1000);
  };
}
