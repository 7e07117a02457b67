// Every statement a pool's connections send, told to `listener` as it is sent (its text, its
// values, the connection): the suites that pin how many statements an operation costs (issue
// 15) count with it. A connection is wrapped once, when the pool first hands it out.

import type { Pool, PoolClient } from 'pg';

export interface SentStatement {
  text: string;
  values: unknown[] | undefined;
  client: PoolClient;
  /**
   * Sent while an earlier statement of its connection was unanswered (pipelined behind it: a
   * BEGIN's first statement, a lock's claim, a COMMIT behind the last statement): it makes no
   * round trip of its own. The statements not `behind` are an operation's round trips.
   */
  behind: boolean;
}

export function onStatement(pool: Pool, listener: (statement: SentStatement) => void): void {
  const wrapped = new WeakSet<PoolClient>();
  pool.on('acquire', (client: PoolClient) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    let unanswered = 0;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const config = args[0] as string | { text?: string; values?: unknown[] } | undefined;
      const text = typeof config === 'string' ? config : (config?.text ?? '');
      const values = (typeof config === 'string' ? args[1] : config?.values) as unknown[] | undefined;
      if (text) listener({ text, values, client, behind: unanswered > 0 });
      const answer = query(...args);
      if (answer instanceof Promise) {
        unanswered++;
        const answered = () => {
          unanswered--;
        };
        answer.then(answered, answered);
      }
      return answer;
    };
  });
}
