import { ConfigError, EnvReader, readServiceConfig } from './config';

const SECRET = 's'.repeat(32);
const DB = 'postgres://paygrid:pw@localhost:5432/paygrid';

function problemsOf(fn: () => void): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('EnvReader', () => {
  it('collects every problem and lists each one in the ConfigError message', () => {
    const reader = new EnvReader({ PORT: 'abc', DEBUG: 'maybe', LEVEL: 'loud' });
    reader.string('NAME');
    reader.int('PORT', 3000);
    reader.bool('DEBUG', false);
    reader.oneOf('LEVEL', ['quiet', 'normal'], 'normal');
    reader.problem('something custom');

    let thrown: unknown;
    try {
      reader.done();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toBeInstanceOf(Error);
    const error = thrown as ConfigError;
    expect(error.problems).toEqual([
      'NAME is required',
      'PORT must be an integer between 0 and 9007199254740991 (got "abc")',
      'DEBUG must be true or false (got "maybe")',
      'LEVEL must be one of quiet, normal (got "loud")',
      'something custom',
    ]);
    expect(error.message.startsWith('Invalid configuration:\n')).toBe(true);
    for (const problem of error.problems) expect(error.message).toContain(`  - ${problem}`);
    expect(error.message.split('\n')).toHaveLength(1 + error.problems.length);
  });

  it('does not throw when there is no problem', () => {
    const reader = new EnvReader({ NAME: 'x' });
    expect(reader.string('NAME')).toBe('x');
    expect(() => reader.done()).not.toThrow();
  });

  it('string: trims, falls back, and treats blank as missing', () => {
    const reader = new EnvReader({ A: '  value  ', BLANK: '   ' });
    expect(reader.string('A')).toBe('value');
    expect(reader.string('MISSING', 'dflt')).toBe('dflt');
    expect(reader.string('BLANK', 'dflt')).toBe('dflt');
    expect(reader.string('BLANK')).toBe('');
    expect(problemsOf(() => reader.done())).toEqual(['BLANK is required']);
  });

  it('optional: undefined when absent or blank', () => {
    const reader = new EnvReader({ A: ' x ', B: '' });
    expect(reader.optional('A')).toBe('x');
    expect(reader.optional('B')).toBeUndefined();
    expect(reader.optional('C')).toBeUndefined();
    expect(() => reader.done()).not.toThrow();
  });

  describe('int', () => {
    it('parses integers within bounds and falls back when absent', () => {
      const reader = new EnvReader({ A: '42', B: ' 7 ', C: '' });
      expect(reader.int('A', 1)).toBe(42);
      expect(reader.int('B', 1, 0, 10)).toBe(7);
      expect(reader.int('C', 5)).toBe(5);
      expect(reader.int('D', 6)).toBe(6);
      expect(() => reader.done()).not.toThrow();
    });

    it.each([
      ['abc', 'must be an integer between 0 and 65535 (got "abc")'],
      ['1.5', 'must be an integer between 0 and 65535 (got "1.5")'],
      ['-1', 'must be an integer between 0 and 65535 (got "-1")'],
      ['65536', 'must be an integer between 0 and 65535 (got "65536")'],
    ])('refuses %p and returns the fallback', (raw, message) => {
      const reader = new EnvReader({ PORT: raw });
      expect(reader.int('PORT', 3000, 0, 65535)).toBe(3000);
      expect(problemsOf(() => reader.done())).toEqual([`PORT ${message}`]);
    });
  });

  describe('bool', () => {
    it.each(['1', 'true', 'TRUE', 'yes', 'on', ' On '])('%p is true', (raw) => {
      const reader = new EnvReader({ X: raw });
      expect(reader.bool('X', false)).toBe(true);
      expect(() => reader.done()).not.toThrow();
    });

    it.each(['0', 'false', 'False', 'no', 'off'])('%p is false', (raw) => {
      const reader = new EnvReader({ X: raw });
      expect(reader.bool('X', true)).toBe(false);
      expect(() => reader.done()).not.toThrow();
    });

    it('falls back when absent and refuses anything else', () => {
      const reader = new EnvReader({ X: 'maybe', Y: '2' });
      expect(reader.bool('MISSING', true)).toBe(true);
      expect(reader.bool('X', true)).toBe(true);
      expect(reader.bool('Y', false)).toBe(false);
      expect(problemsOf(() => reader.done())).toEqual([
        'X must be true or false (got "maybe")',
        'Y must be true or false (got "2")',
      ]);
    });
  });

  describe('oneOf', () => {
    it('accepts an allowed value, falls back when absent, refuses others (case-sensitive)', () => {
      const reader = new EnvReader({ A: 'b', B: 'z', C: 'B' });
      expect(reader.oneOf('A', ['a', 'b'], 'a')).toBe('b');
      expect(reader.oneOf('MISSING', ['a', 'b'], 'a')).toBe('a');
      expect(reader.oneOf('B', ['a', 'b'], 'a')).toBe('a');
      expect(reader.oneOf('C', ['a', 'b'], 'a')).toBe('a');
      expect(problemsOf(() => reader.done())).toEqual([
        'B must be one of a, b (got "z")',
        'C must be one of a, b (got "B")',
      ]);
    });
  });

  describe('url', () => {
    it('accepts the allowed protocols only', () => {
      const reader = new EnvReader({
        OK: DB,
        ALT: 'postgresql://h/db',
        BAD: 'mysql://h/db',
        JUNK: 'not a url',
      });
      expect(reader.url('OK', ['postgres', 'postgresql'])).toBe(DB);
      expect(reader.url('ALT', ['postgres', 'postgresql'])).toBe('postgresql://h/db');
      reader.url('BAD', ['postgres', 'postgresql']);
      reader.url('JUNK', ['postgres', 'postgresql']);
      reader.url('MISSING', ['postgres']);
      expect(problemsOf(() => reader.done())).toEqual([
        'BAD must use postgres or postgresql (got mysql:)',
        'JUNK is not a valid URL',
        'MISSING is required',
      ]);
    });
  });

  describe('secret', () => {
    it('requires a minimum length', () => {
      const reader = new EnvReader({ LONG: SECRET, SHORT: 'short' });
      expect(reader.secret('LONG', 32)).toBe(SECRET);
      expect(reader.secret('SHORT', 32)).toBe('short');
      reader.secret('MISSING', 32);
      expect(problemsOf(() => reader.done())).toEqual([
        'SHORT must be at least 32 characters',
        'MISSING is required',
      ]);
    });
  });
});

describe('readServiceConfig', () => {
  it('lists DATABASE_URL, KAFKA_BROKERS and INTERNAL_SIGNING_SECRET at once in distributed mode', () => {
    const { reader, config } = readServiceConfig({ PAYGRID_MODE: 'distributed' }, 'payments', 3001);
    expect(config.mode).toBe('distributed');
    const problems = problemsOf(() => reader.done());
    expect(problems).toEqual(
      expect.arrayContaining([
        'DATABASE_URL is required',
        'KAFKA_BROKERS is required',
        'INTERNAL_SIGNING_SECRET is required',
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it('defaults to distributed mode (no default secrets in production)', () => {
    const { reader, config } = readServiceConfig({}, 'payments', 3001);
    expect(config.mode).toBe('distributed');
    expect(problemsOf(() => reader.done())).toHaveLength(3);
  });

  it('refuses a too-short internal secret', () => {
    const { reader } = readServiceConfig(
      { DATABASE_URL: DB, KAFKA_BROKERS: 'k:9092', INTERNAL_SIGNING_SECRET: 'x'.repeat(31) },
      'payments',
      3001,
    );
    expect(problemsOf(() => reader.done())).toEqual([
      'INTERNAL_SIGNING_SECRET must be at least 32 characters',
    ]);
  });

  it('reads a complete distributed configuration', () => {
    const { reader, config } = readServiceConfig(
      {
        PAYGRID_MODE: 'distributed',
        DATABASE_URL: DB,
        KAFKA_BROKERS: ' k1:9092, k2:9092 ,,',
        KAFKA_PARTITIONS: '8',
        KAFKA_TOPIC_PREFIX: 'ci-1.',
        OUTBOX_RELAY_ENABLED: 'false',
        INTERNAL_SIGNING_SECRET: SECRET,
        LOG_LEVEL: 'debug',
        PORT: '8080',
        HOST: '0.0.0.0',
        PAYGRID_STRICT_TRANSACTIONS: 'true',
        PAYGRID_DB_PREPARED_STATEMENTS: 'false',
        PAYGRID_DB_PIPELINE: 'false',
      },
      'invoicing',
      3002,
    );
    expect(() => reader.done()).not.toThrow();
    expect(config).toEqual({
      mode: 'distributed',
      service: 'invoicing',
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: DB,
      kafkaBrokers: ['k1:9092', 'k2:9092'],
      kafkaPartitions: 8,
      kafkaTopicPrefix: 'ci-1.',
      kafkaSessionTimeoutMs: 10_000,
      outboxRelayEnabled: false,
      internalSecret: SECRET,
      logLevel: 'debug',
      tracing: { tracesUrl: undefined, protocol: 'http/protobuf', serviceName: 'paygrid-invoicing' },
      strictTransactions: true,
      preparedStatements: false,
      pipelineTransactions: false,
    });
  });

  it('reads the OpenTelemetry export settings, and refuses what it cannot honour', () => {
    const base = { DATABASE_URL: DB, KAFKA_BROKERS: 'k:9092', INTERNAL_SIGNING_SECRET: SECRET };
    const read = (env: Record<string, string>) => readServiceConfig({ ...base, ...env }, 'payments', 3001);
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).config.tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'paygrid-payments',
    });
    expect(
      read({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'pay-eu',
      }).config.tracing,
    ).toEqual({ tracesUrl: 'https://traces.example/otlp', protocol: 'http/json', serviceName: 'pay-eu' });
    expect(
      read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).config.tracing
        .tracesUrl,
    ).toBeUndefined();
    const grpc = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect(() => grpc.reader.done()).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json/,
    );
    const bad = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' });
    expect(() => bad.reader.done()).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
  });

  it('uses defaults for the optional settings', () => {
    const { reader, config } = readServiceConfig(
      { DATABASE_URL: DB, KAFKA_BROKERS: 'k:9092', INTERNAL_SIGNING_SECRET: SECRET },
      'payments',
      3001,
    );
    expect(() => reader.done()).not.toThrow();
    expect(config).toMatchObject({
      port: 3001,
      host: '127.0.0.1',
      kafkaPartitions: 4,
      kafkaTopicPrefix: '',
      kafkaSessionTimeoutMs: 10_000,
      outboxRelayEnabled: true,
      logLevel: 'info',
    });
  });

  it('does not require KAFKA_BROKERS in embedded mode', () => {
    const { reader, config } = readServiceConfig(
      { PAYGRID_MODE: 'embedded', DATABASE_URL: DB, INTERNAL_SIGNING_SECRET: SECRET },
      'payments',
      3001,
    );
    expect(() => reader.done()).not.toThrow();
    expect(config.mode).toBe('embedded');
    expect(config.kafkaBrokers).toEqual([]);
  });

  it('still requires the database and the secret in embedded mode', () => {
    const { reader } = readServiceConfig({ PAYGRID_MODE: 'embedded' }, 'payments', 3001);
    expect(problemsOf(() => reader.done()).sort()).toEqual(
      ['DATABASE_URL is required', 'INTERNAL_SIGNING_SECRET is required'].sort(),
    );
  });

  it('reports int, bool and oneOf parsing errors together with the rest', () => {
    const { reader, config } = readServiceConfig(
      {
        PAYGRID_MODE: 'cluster',
        PORT: '99999',
        KAFKA_PARTITIONS: '0',
        OUTBOX_RELAY_ENABLED: 'sometimes',
        LOG_LEVEL: 'verbose',
        DATABASE_URL: 'mysql://localhost/db',
        INTERNAL_SIGNING_SECRET: 'short',
      },
      'payments',
      3001,
    );
    const problems = problemsOf(() => reader.done());
    expect(problems).toEqual(
      expect.arrayContaining([
        'PAYGRID_MODE must be one of embedded, distributed (got "cluster")',
        'PORT must be an integer between 0 and 65535 (got "99999")',
        'KAFKA_PARTITIONS must be an integer between 1 and 1024 (got "0")',
        'OUTBOX_RELAY_ENABLED must be true or false (got "sometimes")',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
        'DATABASE_URL must use postgres or postgresql (got mysql:)',
        'KAFKA_BROKERS is required',
        'INTERNAL_SIGNING_SECRET must be at least 32 characters',
      ]),
    );
    expect(problems).toHaveLength(8);
    // the invalid values fall back to the defaults
    expect(config).toMatchObject({ mode: 'distributed', port: 3001, kafkaPartitions: 4, logLevel: 'info' });
  });
});
