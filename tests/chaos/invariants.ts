// The invariants the reliability suite checks after its faults, in ONE registry: each entry
// names the tables it needs (it is skipped, and says so, while they do not exist: invoices
// arrive on another branch) and returns how many things it checked and what it found broken.
// Add an invariant by appending to INVARIANTS; the chaos run and its unit test pick it up.
//
// Inputs come from SQL against the services' databases and from what the run observed
// through the API (the events /v1/events lists, the webhook-ids a healthy receiver got, the
// Idempotency-Keys the load sent), so a broken dataset can be fed in by a test.

export type Sql = <T = any>(text: string, params?: unknown[]) => Promise<T[]>;

export interface Observed {
  /** The accounts the run used (invariants look only at their data). */
  accounts: string[];
  /** Every event id listed by GET /v1/events for those accounts (all pages, duplicates kept). */
  listedEventIds: string[];
  /** webhook-id of every delivery a healthy endpoint received (duplicates kept). */
  healthyDeliveries: string[];
  /** The event types the healthy endpoint subscribed to (["*"] for all). */
  healthyEnabledEvents: string[];
  /** When the healthy endpoint was created: earlier events are not owed to it. */
  healthySince: Date;
  /** Idempotency-Keys the load sent; each keyed body carried metadata.chaos_idem = key. */
  idempotencyKeys: string[];
}

export interface InvariantResult {
  name: string;
  skipped?: string;
  checked: number;
  violations: string[];
}

export interface Invariant {
  name: string;
  /** schema.table names that must exist for the check to run. */
  requires: string[];
  check(sql: Sql, observed: Observed): Promise<{ checked: number; violations: string[] }>;
}

/** Topics whose outbox rows are public events (the webhooks service logs them all). */
export const EVENT_TOPIC_PATTERN = '%.events.v1';

const list = (rows: unknown[], max = 10) =>
  rows
    .slice(0, max)
    .map((r) => JSON.stringify(r))
    .join('; ') + (rows.length > max ? ` (+${rows.length - max} more)` : '');

async function servicesWithTable(sql: Sql, table: string): Promise<string[]> {
  const rows = await sql<{ schema: string }>(
    `select table_schema as schema from information_schema.tables where table_name = $1 order by 1`,
    [table],
  );
  return rows.map((r) => r.schema);
}

export const INVARIANTS: Invariant[] = [
  {
    name: 'every succeeded payment/refund has ledger entries covering it; no entries for others',
    requires: ['payments.transactions', 'payments.ledger_entries'],
    async check(sql, o) {
      const [{ n }] = await sql<{ n: string }>(
        `select count(*)::text as n from payments.transactions where account_id = any($1)`,
        [o.accounts],
      );
      const bad = await sql(
        // As ledger.ts postingMismatches: a refund reversed after it succeeded keeps its entries
        // and their correction (debits twice its amount, netting to zero per ledger account).
        `select t.id, t.type, t.status, t.amount::text as amount, coalesce(sum(e.amount), 0)::text as posted
           from payments.transactions t
           left join payments.ledger_entries e on e.transaction_id = t.id and e.direction = 'debit'
          where t.account_id = any($1)
          group by t.id
         having (t.status = 'succeeded' and coalesce(sum(e.amount), 0) <> t.amount)
             or (t.status <> 'succeeded' and count(e.id) > 0
                 and not (t.type = 'refund' and t.status = 'failed' and sum(e.amount) = 2 * t.amount
                          and not exists (
                            select 1 from payments.ledger_entries n where n.transaction_id = t.id
                             group by n.ledger_account
                            having sum(case when n.direction = 'debit' then n.amount else -n.amount end) <> 0)))`,
        [o.accounts],
      );
      return {
        checked: Number(n),
        violations: bad.map((r) => `transaction without matching ledger: ${list([r])}`),
      };
    },
  },
  {
    name: 'the ledger balances (per transaction and currency, and in total)',
    requires: ['payments.ledger_entries'],
    async check(sql, o) {
      const [{ n }] = await sql<{ n: string }>(
        `select count(*)::text as n from payments.ledger_entries where account_id = any($1)`,
        [o.accounts],
      );
      const bad = await sql(
        `select transaction_id, currency,
                sum(case when direction = 'debit' then amount else -amount end)::text as net
           from payments.ledger_entries where account_id = any($1)
          group by rollup (transaction_id), currency
         having sum(case when direction = 'debit' then amount else -amount end) <> 0`,
        [o.accounts],
      );
      return { checked: Number(n), violations: bad.map((r) => `unbalanced: ${list([r])}`) };
    },
  },
  {
    name: 'no payment refunded beyond its amount; amount_refunded equals its live refunds',
    requires: ['payments.transactions', 'payments.refunds'],
    async check(sql, o) {
      const rows = await sql<{ id: string; amount: string; amount_refunded: string; refunds: string }>(
        `select t.id, t.amount::text as amount, t.amount_refunded::text as amount_refunded,
                coalesce(sum(r.amount) filter (where r.status <> 'failed'), 0)::text as refunds
           from payments.transactions t
           join payments.refunds r on r.transaction_id = t.id
          where t.type = 'payment' and t.account_id = any($1)
          group by t.id`,
        [o.accounts],
      );
      const violations = rows
        .filter(
          (r) => BigInt(r.refunds) > BigInt(r.amount) || BigInt(r.refunds) !== BigInt(r.amount_refunded),
        )
        .map((r) => `over-refund or drift: ${list([r])}`);
      return { checked: rows.length, violations };
    },
  },
  {
    name: 'no payment link paid beyond its limit (one-time links once, double submissions included)',
    requires: ['payments.payment_links', 'payments.transactions'],
    async check(sql, o) {
      const rows = await sql<{ id: string; type: string; max_completions: number | null; paid: number }>(
        `select l.id, l.type, l.max_completions, count(t.id)::int as paid
           from payments.payment_links l
           left join payments.transactions t
             on t.payment_link = l.id and t.type = 'payment' and t.status = 'succeeded'
          where l.account_id = any($1)
          group by l.id`,
        [o.accounts],
      );
      const limit = (r: (typeof rows)[number]) => r.max_completions ?? (r.type === 'one_time' ? 1 : null);
      const violations = rows
        .filter((r) => limit(r) !== null && r.paid > (limit(r) as number))
        .map((r) => `paid beyond its limit: ${list([r])}`);
      return { checked: rows.length, violations };
    },
  },
  {
    name: 'invoice numbers are unique and gapless per account and mode',
    requires: ['invoicing.invoices'],
    async check(sql, o) {
      const rows = await sql<{ account_id: string; livemode: boolean; number: string }>(
        `select account_id, livemode, number from invoicing.invoices
          where number is not null and account_id = any($1) order by account_id, livemode, number`,
        [o.accounts],
      );
      const violations: string[] = [];
      const groups = new Map<string, string[]>();
      for (const r of rows) {
        const key = `${r.account_id}/${r.livemode}`;
        groups.set(key, [...(groups.get(key) ?? []), r.number]);
      }
      for (const [key, numbers] of groups) {
        if (new Set(numbers).size !== numbers.length) violations.push(`${key}: duplicate invoice numbers`);
        const sequence = numbers.map((n) => Number(/(\d+)$/.exec(n)?.[1] ?? NaN)).sort((a, b) => a - b);
        sequence.forEach((n, i) => {
          if (i > 0 && n !== sequence[i - 1] + 1)
            violations.push(`${key}: gap between ${sequence[i - 1]} and ${n}`);
        });
      }
      return { checked: rows.length, violations };
    },
  },
  {
    name: 'every committed event (outbox row) is listed by /v1/events exactly once, and nothing else is',
    requires: ['webhooks.events'],
    async check(sql, o) {
      const schemas = await servicesWithTable(sql, 'outbox');
      const committed = new Set<string>();
      for (const schema of schemas) {
        const rows = await sql<{ message_id: string }>(
          `select message_id from ${schema}.outbox where topic like $1 and payload->>'account' = any($2)`,
          [EVENT_TOPIC_PATTERN, o.accounts],
        );
        for (const r of rows) committed.add(r.message_id);
      }
      const listed = new Map<string, number>();
      for (const id of o.listedEventIds) listed.set(id, (listed.get(id) ?? 0) + 1);
      const violations: string[] = [];
      const missing = [...committed].filter((id) => !listed.has(id));
      if (missing.length) violations.push(`${missing.length} committed events not listed: ${list(missing)}`);
      const twice = [...listed].filter(([, n]) => n > 1);
      if (twice.length) violations.push(`${twice.length} events listed more than once: ${list(twice)}`);
      const unknown = [...listed.keys()].filter((id) => !committed.has(id));
      if (unknown.length)
        violations.push(`${unknown.length} listed events never committed: ${list(unknown)}`);
      return { checked: committed.size, violations };
    },
  },
  {
    name: 'every event reached the healthy endpoint at least once (by webhook-id)',
    requires: ['webhooks.events'],
    async check(sql, o) {
      const all = o.healthyEnabledEvents.includes('*');
      const owed = await sql<{ id: string; type: string }>(
        `select id, type from webhooks.events
          where account_id = any($1) and received_at >= $2 and ($3 or type = any($4))`,
        [o.accounts, o.healthySince, all, o.healthyEnabledEvents],
      );
      const received = new Set(o.healthyDeliveries);
      const missing = owed.filter((e) => !received.has(e.id));
      return {
        checked: owed.length,
        violations: missing.length ? [`${missing.length} events never delivered: ${list(missing)}`] : [],
      };
    },
  },
  {
    name: 'no idempotent request applied twice (rows per Idempotency-Key, every table with metadata)',
    requires: [],
    async check(sql, o) {
      const tables = await sql<{ schema: string; table: string }>(
        `select table_schema as schema, table_name as table from information_schema.columns
          where column_name = 'metadata' and data_type = 'jsonb'
            and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
      );
      const violations: string[] = [];
      let rows = 0;
      for (const { schema, table } of tables) {
        const counts = await sql<{ key: string; n: string }>(
          `select metadata->>'chaos_idem' as key, count(*)::text as n from ${schema}.${table}
            where metadata->>'chaos_idem' = any($1) group by 1`,
          [o.idempotencyKeys],
        );
        for (const c of counts) {
          rows += Number(c.n);
          if (Number(c.n) > 1) violations.push(`${schema}.${table}: key ${c.key} applied ${c.n} times`);
        }
      }
      return {
        checked: o.idempotencyKeys.length,
        violations:
          rows === 0 && o.idempotencyKeys.length
            ? ['no row carries any key: the check sees nothing']
            : violations,
      };
    },
  },
];

/** Runs every invariant whose tables exist; the results say what was checked. */
export async function checkInvariants(
  sql: Sql,
  observed: Observed,
  invariants: Invariant[] = INVARIANTS,
): Promise<InvariantResult[]> {
  const tables = new Set(
    (
      await sql<{ name: string }>(
        `select table_schema || '.' || table_name as name from information_schema.tables`,
      )
    ).map((r) => r.name),
  );
  const results: InvariantResult[] = [];
  for (const invariant of invariants) {
    const absent = invariant.requires.filter((t) => !tables.has(t));
    if (absent.length) {
      results.push({
        name: invariant.name,
        skipped: `no ${absent.join(', ')} yet`,
        checked: 0,
        violations: [],
      });
      continue;
    }
    results.push({ name: invariant.name, ...(await invariant.check(sql, observed)) });
  }
  return results;
}

export function formatResults(results: InvariantResult[]): string {
  return results
    .map((r) =>
      r.skipped
        ? `  SKIP ${r.name} (${r.skipped})`
        : `  ${r.violations.length ? 'FAIL' : 'ok  '} ${r.name}: ${r.checked} checked${r.violations.length ? `\n       ${r.violations.join('\n       ')}` : ''}`,
    )
    .join('\n');
}
