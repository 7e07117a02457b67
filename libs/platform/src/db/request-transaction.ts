// The request-wide transaction: when the idempotency layer runs a request inside one
// transaction, every Database.transaction() call made while handling it joins that
// transaction instead of opening its own, so the write and the idempotency record commit
// (or roll back) together.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Tx } from './database';

export const requestTransaction = new AsyncLocalStorage<{ db: Database; tx: Tx }>();
