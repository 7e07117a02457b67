// The plan suite's tools (docs/scaling.md "Costs that stay flat"): a fresh PostgreSQL database
// migrated by the services' own migrations, a TypeORM logger that records every statement the
// real code runs (text and parameters), and EXPLAIN (FORMAT JSON) of each recorded statement
// with its own parameters, checked for the two ways a hot path's cost grows with the data.

import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import type { Logger as TypeOrmLogger, MigrationInterface } from 'typeorm';
import { Database } from '@paygrid/platform';

/** A table with more rows than this is large: a Seq Scan of it fails the suite. */
export const LARGE_TABLE_ROWS = 10_000;
/**
 * The most rows a node may be estimated to produce when nothing above it stops early (no
 * Limit, or a Sort/Aggregate/Hash between it and the Limit that consumes all of its input):
 * 100 pages of 100. The tested account holds 20,000 rows of each 1,000,000-row table, so a
 * plan that reads all of one account's rows fails too, not only one that reads the table.
 */
export const MAX_UNBOUNDED_ROWS = 10_000;
/**
 * The most a plan's estimated cost may grow from the small seed (100,000 rows per large table)
 * to the large one (1,000,000): a plan whose work is bounded by a page or a key grows by a
 * B-tree level at most (about 1x); one that reads a share of the table grows about 10x.
 */
export const MAX_COST_GROWTH = 3;
/**
 * Below this estimated cost (about 250 random page reads) a plan is not held to
 * MAX_COST_GROWTH: a page of 100 filling up as the table grows (a created range, a small
 * merchant's rows) costs more at 1,000,000 than at 100,000 and is still bounded by the page.
 */
export const COST_FLOOR = 1_000;

export interface Statement {
  sql: string;
  params: unknown[];
  /**
   * Sent as a named prepared statement (Database `preparedStatements`): PostgreSQL may then run
   * it on a generic plan, made once and kept whatever the data does afterwards.
   */
  named?: boolean;
}

/** Records the statements a code path sends, while `record` runs. */
export class StatementRecorder implements TypeOrmLogger {
  private recording?: Statement[];

  async record(work: () => Promise<unknown>): Promise<Statement[]> {
    const statements: Statement[] = [];
    this.recording = statements;
    try {
      await work();
    } finally {
      this.recording = undefined;
    }
    return statements;
  }

  logQuery(query: string, parameters?: unknown[]): void {
    this.statement({ sql: query, params: parameters ?? [] });
  }

  /** A statement sent on a connection of migratedDatabase's pool. */
  statement({ sql, params, named }: Statement): void {
    // Transaction control and savepoints have no plan.
    if (/^\s*(start transaction|begin|commit|rollback|savepoint|release savepoint|set )/i.test(sql)) return;
    // A copy: callers may push onto the array after the query (paginate adds its limit).
    this.recording?.push({ sql, params: [...params], ...(named ? { named } : {}) });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

const isStatementConfig = (value: unknown): value is { name?: string; text: string; values?: unknown[] } =>
  typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string';

/** A fresh database for one plan suite; `drop()` removes it. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is not set: the plan suite needs the real PostgreSQL');
  const name = `paygrid_plans_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const parsed = new URL(base);
  parsed.pathname = `/${name}`;
  return {
    url: parsed.toString(),
    drop: async () => {
      const cleanup = new Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * A service's Database on `url`, migrated by its own migration list, with every statement
 * going through `recorder` (a listener on each new connection of its pool). With
 * `preparedStatements`, it names statements as the distributed services do (the recorder
 * then says which went named); with `connections: 1`, every statement goes to one session.
 */
export async function migratedDatabase(
  url: string,
  schema: string,
  migrations: (new () => MigrationInterface)[],
  recorder: StatementRecorder,
  options: { preparedStatements?: boolean; connections?: number } = {},
): Promise<Database> {
  const pool = new Pool({
    connectionString: url,
    max: options.connections ?? 4,
    application_name: `plans-${schema}`,
  });
  // Every statement of every connection (pool.query checks one out too) goes to the recorder:
  // a text with its parameters, or pg's statement object (a named one: Database, prepared).
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((sql: unknown, params?: unknown, ...rest: unknown[]) => {
      if (typeof sql === 'string') recorder.statement({ sql, params: Array.isArray(params) ? params : [] });
      else if (isStatementConfig(sql))
        recorder.statement({ sql: sql.text, params: sql.values ?? [], named: sql.name !== undefined });
      return query(sql, params, ...rest);
    }) as typeof client.query;
  });
  const db = new Database(pool, schema, {
    url,
    migrations,
    applicationName: `plans-${schema}`,
    preparedStatements: options.preparedStatements === true,
  });
  await db.migrate();
  return db;
}

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Schema?: string;
  'Index Name'?: string;
  Filter?: string;
  'Plan Rows': number;
  'Total Cost': number;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

export interface PlanReport {
  path: string;
  statement: string;
  /** Each node that reads a table, its estimated rows, and whether a Limit above it stops it early. */
  access: string[];
  /** Estimated total cost at 1,000,000 rows, and at 100,000. */
  cost: number;
  smallCost: number;
  problems: string[];
}

/** Nodes that read all of their input before emitting a row: a Limit above them bounds nothing below. */
const BLOCKING = new Set([
  'Sort',
  'Incremental Sort',
  'Aggregate',
  'Hash',
  'Materialize',
  'WindowAgg',
  'SetOp',
  'Group',
]);

function describe(node: PlanNode): string {
  const relation = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const index = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  return `${node['Node Type']}${index}${relation}`;
}

/** What is wrong with a plan: Seq Scans of large tables, unbounded nodes over MAX_UNBOUNDED_ROWS. */
export function checkPlan(
  root: PlanNode,
  tableRows: Map<string, number>,
): { problems: string[]; access: string[] } {
  const problems: string[] = [];
  const access: string[] = [];
  const walk = (node: PlanNode, bounded: boolean) => {
    if (
      (node['Relation Name'] !== undefined || node['Index Name'] !== undefined) &&
      node['Node Type'] !== 'ModifyTable'
    ) {
      access.push(`${describe(node)}: ${node['Plan Rows']} rows${bounded ? ' (stopped by a limit)' : ''}`);
    }
    const relation = `${node.Schema ?? ''}.${node['Relation Name'] ?? ''}`;
    if (node['Node Type'] === 'Seq Scan' && (tableRows.get(relation) ?? 0) > LARGE_TABLE_ROWS) {
      problems.push(`Seq Scan on ${relation} (${tableRows.get(relation)} rows)`);
    }
    if (!bounded && node['Plan Rows'] > MAX_UNBOUNDED_ROWS) {
      problems.push(`${describe(node)} estimated ${node['Plan Rows']} rows with no limit above it`);
    }
    for (const child of node.Plans ?? []) {
      // A subquery or CTE is planned on its own: only its own Limit bounds it.
      const own = child['Parent Relationship'] === 'InitPlan' || child['Parent Relationship'] === 'SubPlan';
      const childBounded =
        node['Node Type'] === 'Limit' || (bounded && !own && !BLOCKING.has(node['Node Type']));
      walk(child, childBounded);
    }
  };
  walk(root, false);
  return { problems, access };
}

/** A node of EXPLAIN (ANALYZE, FORMAT JSON). */
export interface AnalyzedNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: AnalyzedNode[];
}

/** Rows every node of an analysed plan produced or threw away, over all of its loops. */
export function rowsTouched(node: AnalyzedNode): number {
  const own =
    (node['Actual Rows'] +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Join Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0)) *
    node['Actual Loops'];
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsTouched(child), 0);
}

/** Row counts of the tables of `schemas` (pg_class.reltuples, after ANALYZE). */
export async function tableRows(client: Client, schemas: string[]): Promise<Map<string, number>> {
  const { rows } = await client.query<{ name: string; n: number }>(
    `select n.nspname || '.' || c.relname as name, c.reltuples::bigint::int as n
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname = any($1)`,
    [schemas],
  );
  return new Map(rows.map((r) => [r.name, r.n]));
}

async function planOf(client: Client, { sql, params }: Statement): Promise<PlanNode> {
  // VERBOSE: only then does a node name its relation's schema, by which checkPlan finds the
  // table's size (without it no Seq Scan was ever found large).
  const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `explain (verbose, format json) ${sql}`,
    params,
  );
  return rows[0]['QUERY PLAN'][0].Plan;
}

/**
 * EXPLAIN (FORMAT JSON) of each statement with its own parameters, on the large database and
 * on the small one (EXPLAIN without ANALYZE: nothing is executed, writes included).
 */
export async function explainAll(
  large: Client,
  small: Client,
  path: string,
  statements: Statement[],
  rowsOf: Map<string, number>,
): Promise<PlanReport[]> {
  const reports: PlanReport[] = [];
  const seen = new Set<string>();
  for (const statement of statements) {
    const { sql, params } = statement;
    // Parameters may be bigints (amounts): keyed by their text.
    const key = `${sql}\u0000${JSON.stringify(params, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const root = await planOf(large, statement);
    const smallCost = (await planOf(small, statement))['Total Cost'];
    const { problems, access } = checkPlan(root, rowsOf);
    if (root['Total Cost'] > COST_FLOOR && root['Total Cost'] > MAX_COST_GROWTH * smallCost) {
      problems.push(
        `cost grows with the table: ${smallCost.toFixed(1)} at 100,000 rows, ${root['Total Cost'].toFixed(1)} at 1,000,000`,
      );
    }
    reports.push({
      path,
      statement: sql.replace(/\s+/g, ' ').trim(),
      access,
      cost: root['Total Cost'],
      smallCost,
      problems,
    });
  }
  return reports;
}

/** The suite's table: path, statement, the nodes reading tables with their estimated rows, the plan's cost. */
export function planTable(reports: PlanReport[]): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
  const lines = reports.map(
    (r) =>
      `| ${r.path} | \`${cut(r.statement, 110)}\` | ${r.access.join('<br>') || '(no table)'} | ${r.smallCost.toFixed(1)} → ${r.cost.toFixed(1)} | ${
        r.problems.length ? r.problems.join('; ') : 'ok'
      } |`,
  );
  return [
    '| path | statement | plan nodes reading tables: estimated rows | total cost, 100 k → 1 M rows | verdict |',
    '|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

/** The size of the large seed, and of the comparison seed. */
export const LARGE = 1_000_000;
export const SMALL = 100_000;

/** Two databases migrated by `migrations` and seeded at LARGE and SMALL rows; the code runs on the large one. */
export interface PlanFixture {
  /** The large database of the first schema, statements recorded by `recorder`. */
  db: Database;
  /** The large database of `schema`, statements recorded by `recorder`. */
  database(schema: string): Database;
  recorder: StatementRecorder;
  /** Row counts of the large database's tables (after ANALYZE). */
  rows: Map<string, number>;
  /** The seed's "now": the services run on a clock frozen there. */
  seededAt: Date;
  reports: PlanReport[];
  /** Records what `work` sends, EXPLAINs it on both databases, keeps the reports. */
  plans(path: string, work: () => Promise<unknown>): Promise<PlanReport[]>;
  close(): Promise<void>;
}

/**
 * Builds a PlanFixture: `seed(n)` gives the INSERT ... SELECT statements for n rows per large
 * table ($1 is the seed's "now"); both sizes are seeded at once, then ANALYZEd.
 */
export async function planFixture(
  schemas: { schema: string; migrations: (new () => MigrationInterface)[] }[],
  seed: (n: number) => string[],
): Promise<PlanFixture> {
  const seededAt = new Date();
  const [large, small] = [await freshDatabase(), await freshDatabase()];
  const recorder = new StatementRecorder();
  const databases: Database[] = [];
  const bySchema = new Map<string, Database>();
  for (const { schema, migrations } of schemas) {
    const main = await migratedDatabase(large.url, schema, migrations, recorder);
    bySchema.set(schema, main);
    databases.push(main, await migratedDatabase(small.url, schema, migrations, new StatementRecorder()));
  }
  const database = (schema: string) => {
    const found = bySchema.get(schema);
    if (!found) throw new Error(`no database for schema ${schema}`);
    return found;
  };
  const largeClient = new Client({ connectionString: large.url });
  const smallClient = new Client({ connectionString: small.url });
  await Promise.all([largeClient.connect(), smallClient.connect()]);
  const run = async (client: Client, n: number) => {
    for (const statement of seed(n)) await client.query(statement, [seededAt]);
    await client.query('analyze');
  };
  await Promise.all([run(largeClient, LARGE), run(smallClient, SMALL)]);
  const rows = await tableRows(
    largeClient,
    schemas.map((s) => s.schema),
  );
  const reports: PlanReport[] = [];
  return {
    db: database(schemas[0].schema),
    database,
    recorder,
    rows,
    seededAt,
    reports,
    async plans(path, work) {
      const statements = await recorder.record(work);
      if (!statements.length) throw new Error(`${path}: the code path sent no statement`);
      const found = await explainAll(largeClient, smallClient, path, statements, rows);
      reports.push(...found);
      return found;
    },
    async close() {
      await largeClient.end();
      await smallClient.end();
      for (const database of databases) await database.close();
      await large.drop();
      await small.drop();
    },
  };
}

/** The problems of a path's plans, by statement (an empty list when every plan is flat). */
export const problemsOf = (found: PlanReport[]) =>
  found.filter((r) => r.problems.length).map((r) => ({ statement: r.statement, problems: r.problems }));
