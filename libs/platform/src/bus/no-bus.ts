// For a service that neither publishes nor consumes: any use is a programming error.

import type { EventBus } from './bus';

export class NoBus implements EventBus {
  readonly transport = 'none' as const;
  async connect(): Promise<void> {}
  async publish(): Promise<void> {
    throw new Error('this service has no event bus');
  }
  async subscribe(): Promise<void> {
    throw new Error('this service has no event bus');
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}
