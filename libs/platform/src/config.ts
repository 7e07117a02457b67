// Configuration is parsed and validated once at start. Every problem is listed at once,
// and production mode has no default secrets.

import type { TracingConfig } from './observability/tracing';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

/** Collects problems while reading variables, then throws them all together. */
export class EnvReader {
  private readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback?: string): string {
    const value = this.env[name]?.trim();
    if (value) return value;
    if (fallback !== undefined) return fallback;
    this.problems.push(`${name} is required`);
    return '';
  }

  /** Records a problem found while interpreting a value read with optional() or string(). */
  invalid(problem: string): void {
    this.problems.push(problem);
  }

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name]?.trim().toLowerCase();
    if (!raw) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.env[name]?.trim();
    if (!raw) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }

  url(name: string, protocols: readonly string[], fallback?: string): string {
    const value = this.string(name, fallback);
    if (!value) return value;
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
        this.problems.push(`${name} must use ${protocols.join(' or ')} (got ${parsed.protocol})`);
      }
    } catch {
      this.problems.push(`${name} is not a valid URL`);
    }
    return value;
  }

  secret(name: string, minLength: number, fallback?: string): string {
    const value = this.string(name, fallback);
    if (value && value.length < minLength)
      this.problems.push(`${name} must be at least ${minLength} characters`);
    return value;
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  done(): void {
    if (this.problems.length) throw new ConfigError(this.problems);
  }
}

export type RunMode = 'embedded' | 'distributed';

/**
 * The standard OpenTelemetry variables, as far as Paygrid honours them: a traces endpoint
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces),
 * OTLP over HTTP in protobuf (the default) or JSON, OTEL_SERVICE_NAME, and OTEL_SDK_DISABLED
 * or OTEL_TRACES_EXPORTER=none to turn it off. gRPC is refused rather than silently ignored.
 */
function readTracingConfig(reader: EnvReader, service: string): TracingConfig {
  const protocol =
    reader.optional('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? reader.optional('OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined && protocol !== 'http/protobuf' && protocol !== 'http/json')
    reader.invalid(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got "${protocol}")`);
  const serviceName = reader.optional('OTEL_SERVICE_NAME') ?? `paygrid-${service}`;
  const off =
    reader.optional('OTEL_SDK_DISABLED') === 'true' || reader.optional('OTEL_TRACES_EXPORTER') === 'none';
  const endpoint = reader.optional('OTEL_EXPORTER_OTLP_ENDPOINT');
  const tracesEndpoint = reader.optional('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  let tracesUrl = tracesEndpoint ?? (endpoint ? `${endpoint.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (tracesUrl) {
    try {
      if (!['http:', 'https:'].includes(new URL(tracesUrl).protocol)) throw new Error('not http');
    } catch {
      reader.invalid(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL (got "${tracesUrl}")`);
      tracesUrl = undefined;
    }
  }
  return {
    tracesUrl: off ? undefined : tracesUrl,
    protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
    serviceName,
  };
}

/** What every service needs; each app extends it with its own settings. */
export interface ServiceConfig {
  mode: RunMode;
  service: string;
  port: number;
  host: string;
  databaseUrl: string;
  kafkaBrokers: string[];
  kafkaPartitions: number;
  /** Prepended to every topic name, so several deployments (or test runs) can share a cluster. */
  kafkaTopicPrefix: string;
  /** Kafka consumer session: how long a crashed member holds its partitions (broker min 6 s). */
  kafkaSessionTimeoutMs: number;
  /** Run the outbox relay in this process (off for API-only replicas, or to simulate a crash). */
  outboxRelayEnabled: boolean;
  internalSecret: string;
  logLevel: string;
  /** Where `GET /metrics` (Prometheus) is served, on its own port; undefined: not served. */
  metricsPort?: number;
  /** OTLP trace export (docs/observability.md); tracesUrl undefined: no tracing at all. */
  tracing: TracingConfig;
  /**
   * A statement sent outside an idempotent request's transaction from inside it: an error
   * (true: the test suites) or joined and logged (false: production). docs/adr/0015.
   */
  strictTransactions: boolean;
  /**
   * Named prepared statements (db/statements.ts), on PostgreSQL and on the embedded database.
   * Off behind a transaction-pooling PgBouncer older than 1.21.
   */
  preparedStatements: boolean;
  /**
   * pg's pipeline mode: a transaction's BEGIN and COMMIT travel with its first and last
   * statements (db/tx.ts), on PostgreSQL and on the embedded database.
   */
  pipelineTransactions: boolean;
}

export function readServiceConfig(
  env: Env,
  service: string,
  defaultPort: number,
  options: { kafka?: boolean } = {},
): { reader: EnvReader; config: ServiceConfig } {
  const reader = new EnvReader(env);
  const mode = reader.oneOf<RunMode>('PAYGRID_MODE', ['embedded', 'distributed'], 'distributed');
  const config: ServiceConfig = {
    mode,
    service,
    port: reader.int('PORT', defaultPort, 0, 65535),
    host: reader.string('HOST', '127.0.0.1'),
    databaseUrl: reader.url('DATABASE_URL', ['postgres', 'postgresql']),
    kafkaBrokers: (mode === 'embedded' || options.kafka === false
      ? (reader.optional('KAFKA_BROKERS') ?? '')
      : reader.string('KAFKA_BROKERS')
    )
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    kafkaPartitions: reader.int('KAFKA_PARTITIONS', 4, 1, 1024),
    kafkaTopicPrefix: reader.optional('KAFKA_TOPIC_PREFIX') ?? '',
    kafkaSessionTimeoutMs: reader.int('KAFKA_SESSION_TIMEOUT_MS', 10_000, 6_000, 300_000),
    outboxRelayEnabled: reader.bool('OUTBOX_RELAY_ENABLED', true),
    internalSecret: reader.secret('INTERNAL_SIGNING_SECRET', 32),
    logLevel: reader.oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
    ),
    metricsPort: reader.optional('METRICS_PORT') ? reader.int('METRICS_PORT', 0, 0, 65535) : undefined,
    tracing: readTracingConfig(reader, service),
    strictTransactions: reader.bool('PAYGRID_STRICT_TRANSACTIONS', false),
    preparedStatements: reader.bool('PAYGRID_DB_PREPARED_STATEMENTS', true),
    pipelineTransactions: reader.bool('PAYGRID_DB_PIPELINE', true),
  };
  return { reader, config };
}
