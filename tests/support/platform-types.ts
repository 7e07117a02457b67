// The test harness's types (tests/support/platform.ts): the platform a suite drives, in
// either mode, and what its helpers answer.

import type { BusMessage } from '@paygrid/platform';

export type Mode = 'embedded' | 'distributed';
export type ServiceName = 'gateway' | 'payments' | 'invoicing' | 'webhooks';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestAccount {
  id: string;
  testKey: string;
  liveKey: string;
}

/** What the payments service's jobs did in one run of `advancePaymentsClock`. */
export interface JobReport {
  mandate_charges: number;
  links_expired: number;
  recovered: { mandate_charges: number; payments: number; refunds: number };
}

export interface Platform {
  mode: Mode;
  url: string;
  operatorToken: string;
  /** The secret the services share (signs internal contexts and hosted-invoice payment tokens). */
  internalSecret: string;
  /**
   * Sends `method path` to the gateway as an HTTP client does: redirects are answered, never
   * followed (a hosted form's 303 is the response); a URLSearchParams body is posted as a form
   * (application/x-www-form-urlencoded), a string or Buffer as is, anything else as JSON.
   */
  api<T = any>(
    key: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
  /** GET on a service itself, not through the gateway (its internal routes, e.g. /openapi.json). */
  internal<T = any>(service: Exclude<ServiceName, 'gateway'>, path: string): Promise<ApiResponse<T>>;
  /**
   * A new account with a test and a live key. Its rate limit is raised to 10,000/s: suites
   * send requests back to back and must not meet the test-mode default of 25/s, which has
   * suites of its own (they pass `{ defaultRateLimit: true }`).
   */
  newAccount(groupings?: string[], options?: { defaultRateLimit?: boolean }): Promise<TestAccount>;
  /**
   * Moves the payments clock forward and runs the service's jobs once (due mandates, link
   * expiry, recovery) through its operator-only internal route; answers the clock's new now.
   * Needs `startPlatform({ paymentsTestClock: true })`.
   */
  advancePaymentsClock(ms: number): Promise<{ now: Date; ran: JobReport }>;
  /** Puts messages on a topic of the mode's real bus (embedded bus or Kafka). */
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /** Runs SQL against a service's own database (invariant checks; read-only by convention). */
  sql<T = any>(service: Exclude<ServiceName, 'gateway'>, text: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

export interface DistributedPlatform extends Platform {
  databaseUrl: string;
  topicPrefix: string;
  ports: Record<ServiceName, number>;
  env: Record<string, string>;
  kill(service: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  start(service: ServiceName, extraEnv?: Record<string, string>): Promise<void>;
  /** Starts one more gateway process on its own port (same database and Redis). */
  startExtraGateway(): Promise<{ url: string; stop(): Promise<void> }>;
  /** Starts one more instance of a service on its own port (same database, Kafka and Redis). */
  startExtra(service: ServiceName, extraEnv?: Record<string, string>): Promise<ExtraInstance>;
  /** The process id of a service's main instance (undefined when it is not running). */
  pid(service: ServiceName): number | undefined;
}

export interface ExtraInstance {
  url: string;
  pid: number;
  stop(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}
