// Named prepared statements (on PostgreSQL and on the embedded database): a statement with parameters
// that a Database sends again and again gets a name, and pg then parses it once per
// connection and sends only Bind/Execute afterwards. PostgreSQL keeps its plan (a generic
// plan once it finds one as good as the custom ones), so the hot paths stop paying parse and
// planning on every call: half of PostgreSQL's statement time per checkout before this
// (bench/README.md, finding 28).
//
// PGlite serves every connection from one session: its wire server (sync-group-queue.ts) makes
// each connection's names its own and closes them when the connection ends, so the names do
// not collide there (on since 2026-12-07: finding 61). Off behind a transaction-pooling
// PgBouncer older than 1.21 (PAYGRID_DB_PREPARED_STATEMENTS=false).

/** The statement object pg takes: `name` makes it a prepared statement of the connection. */
export interface StatementConfig {
  name?: string;
  text: string;
  values: unknown[];
}

/** A text is named on its PREPARE_AFTER-th use, so a one-off statement is never prepared. */
export const PREPARE_AFTER = 2;
/**
 * The most texts one Database names. Every connection of its pool may hold each of them, so
 * this bounds what PostgreSQL keeps per connection; texts past it are sent unnamed, as
 * before. A service's hot statements are the first to get there.
 */
export const MAX_PREPARED = 256;

/** Which texts of one Database are sent as named statements, and their names. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  /** Uses of texts not named yet; cleared when it grows past a bound (dynamic texts). */
  private readonly uses = new Map<string, number>();

  constructor(
    /** The names' prefix (the schema: readable in `pg_prepared_statements`). */
    private readonly prefix: string,
    private readonly max = MAX_PREPARED,
    private readonly after = PREPARE_AFTER,
  ) {}

  /** What to hand pg for `text` with `values`. A text without parameters stays unnamed. */
  config(text: string, values: unknown[]): StatementConfig {
    if (!values.length) return { text, values };
    const name = this.names.get(text) ?? this.count(text);
    return name ? { name, text, values } : { text, values };
  }

  get size(): number {
    return this.names.size;
  }

  private count(text: string): string | undefined {
    if (this.names.size >= this.max) return undefined;
    const uses = (this.uses.get(text) ?? 0) + 1;
    if (uses < this.after) {
      if (this.uses.size >= this.max * 4) this.uses.clear();
      this.uses.set(text, uses);
      return undefined;
    }
    this.uses.delete(text);
    const name = `${this.prefix}_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

/**
 * PostgreSQL refuses a prepared statement whose result columns changed since it was prepared
 * (`select *` or `returning *` on a table a migration has just widened, during a rolling
 * deploy): "cached plan must not change result type". The connection holding it is dropped
 * (a new one prepares afresh) and the transaction retried.
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change')
  );
}
