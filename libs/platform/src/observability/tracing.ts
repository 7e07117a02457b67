// Traces (OpenTelemetry): hand-placed spans along the path a request and its events take
// (gateway -> service -> outbox commit -> relay -> Kafka -> consumer -> webhook delivery),
// with the W3C `traceparent` carried across each hop: the gateway's signed internal context,
// an outbox row's trace_context column, a Kafka message header, a delivery row's
// trace_context column and the webhook POST. Spans are placed by hand, not by the
// auto-instrumentations, because the hops that matter here are our own (the outbox and the
// delivery queue are tables, not calls any instrumentation sees) and because the require-hook
// instrumentations would wrap every pg query and Fastify hook on the hot path.
//
// Nothing is recorded or exported unless OTLP export is configured (OTEL_EXPORTER_OTLP_ENDPOINT
// or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): without a registered provider the API's tracer is a
// no-op, `traceparentOf` answers undefined, and no header, column value or span is written.

import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
// The SDK and the exporters are imported when tracing starts, not with this module: every
// process and every embedded test file loads this module, and the exporters alone took 130-340
// ms of a service's start-up CPU (a third of it the unused protocol's).
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export interface TracingConfig {
  /** Where spans go (the full /v1/traces URL); undefined: tracing off. */
  tracesUrl?: string;
  protocol: 'http/protobuf' | 'http/json';
  /** service.name of the spans (OTEL_SERVICE_NAME, default paygrid-<service>). */
  serviceName: string;
}

export { SpanKind };
export type { Span };

const tracer = trace.getTracer('paygrid');
let provider: NodeTracerProvider | undefined;

/** True once `startTracing` registered an exporting provider in this process. */
export function tracingEnabled(): boolean {
  return provider !== undefined;
}

/**
 * Registers the process's tracer provider (AsyncLocalStorage context, W3C trace context
 * propagation, batched OTLP/HTTP export) when `config.tracesUrl` is set; once per process
 * (the embedded default's four apps share the first one).
 */
export async function startTracing(config: TracingConfig): Promise<void> {
  if (!config.tracesUrl || provider) return;
  const [{ resourceFromAttributes }, { BatchSpanProcessor }, { NodeTracerProvider }] = await Promise.all([
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-trace-node'),
  ]);
  const exporter =
    config.protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter({
          url: config.tracesUrl,
        })
      : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter({
          url: config.tracesUrl,
        });
  if (provider) return; // another start finished first
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  provider.register();
}

/** Exports what is buffered and stops (at shutdown, so the last spans are not lost). */
export async function stopTracing(): Promise<void> {
  const current = provider;
  provider = undefined;
  await current?.shutdown().catch(() => undefined);
}

/** The W3C traceparent of `span` (or of the active context), undefined when nothing is traced. */
export function traceparentOf(span?: Span): string | undefined {
  if (!provider) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(span ? trace.setSpan(ROOT_CONTEXT, span) : context.active(), carrier);
  return carrier.traceparent;
}

/** The context a `traceparent` names (the root context without one). */
export function contextOf(traceparent: string | null | undefined): Context {
  if (!traceparent || !provider) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** Starts a span, child of `parent` (a context or a traceparent); a no-op span when tracing is off. */
export function startSpan(
  name: string,
  kind: SpanKind,
  parent: Context | string | null | undefined,
  attributes: Attributes = {},
): Span {
  const parentContext = typeof parent === 'string' || parent == null ? contextOf(parent) : parent;
  return tracer.startSpan(name, { kind, attributes }, parentContext);
}

/** Runs `work` with `span` active (so spans and traceparents made inside descend from it). */
export function withSpan<T>(span: Span, work: () => T): T {
  return context.with(trace.setSpan(context.active(), span), work);
}

/** Runs `work` in a new span, ended (with the error recorded) when `work` settles. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  parent: Context | string | null | undefined,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!provider) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  const span = startSpan(name, kind, parent, attributes);
  try {
    return await withSpan(span, () => work(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks `span` failed with `error`. */
export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
}

/** The trace id of a recording span (for log lines), undefined otherwise. */
export function traceIdOf(span: Span | undefined): string | undefined {
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}
