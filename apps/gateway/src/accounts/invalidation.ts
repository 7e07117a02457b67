// How a change to keys or accounts reaches every gateway instance: in the embedded mode an
// in-process signal; distributed, a Redis pub/sub channel. Subscribers drop their key cache,
// so a revoked key fails on the next request everywhere (well under the one-second promise).

import Redis from 'ioredis';
import type { Logger } from '@paygrid/platform';

export interface InvalidationChannel {
  publish(): Promise<void>;
  subscribe(listener: () => void): void;
  close(): Promise<void>;
}

export class LocalInvalidation implements InvalidationChannel {
  private readonly listeners: (() => void)[] = [];
  async publish(): Promise<void> {
    this.listeners.forEach((l) => l());
  }
  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }
  async close(): Promise<void> {}
}

const CHANNEL = 'paygrid:gateway:keys-changed';

export class RedisInvalidation implements InvalidationChannel {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly listeners: (() => void)[] = [];

  constructor(
    url: string,
    private readonly logger?: Logger,
  ) {
    this.publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
    this.subscriber = new Redis(url, { lazyConnect: true });
    this.subscriber.on('message', () => this.listeners.forEach((l) => l()));
    // After a reconnect, messages sent meanwhile are lost: drop the cache to be safe.
    this.subscriber.on('ready', () => this.listeners.forEach((l) => l()));
  }

  async connect(): Promise<void> {
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    await this.subscriber.subscribe(CHANNEL);
  }

  async publish(): Promise<void> {
    // Local listeners first: this instance must not serve a revoked key even if Redis is slow.
    this.listeners.forEach((l) => l());
    try {
      await this.publisher.publish(CHANNEL, String(Date.now()));
    } catch (err) {
      // The change is committed; only the fan-out failed. Other instances then notice it when
      // their cache entry expires (at most a minute) or when their Redis subscription comes
      // back (which drops their cache). Failing the operator's call would misreport it.
      this.logger?.error(
        { err },
        'key cache invalidation could not be published; other gateways may serve the old state for up to 60 s',
      );
    }
  }

  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  async ping(): Promise<void> {
    await this.publisher.ping();
  }

  async close(): Promise<void> {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}
