// What the CLI prints: the API's JSON with --json, else a table (lists) or aligned
// `field  value` lines (one object), nested values as compact JSON.

const LIST_COLUMNS = ['id', 'type', 'status', 'amount', 'amount_total', 'currency', 'email', 'created_at'];

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A table of `rows`: the given columns after the id, else the usual ones the rows have. */
export function table(rows: Record<string, unknown>[], only?: readonly string[]): string {
  if (!rows.length) return '(no objects)';
  const columns = only
    ? ['id', ...only]
    : LIST_COLUMNS.filter((column) => rows.some((row) => row[column] !== undefined));
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

export function fields(object: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(object).map((key) => key.length));
  return Object.entries(object)
    .map(([key, value]) => `${key.padEnd(width)}  ${cell(value)}`)
    .join('\n');
}

export function render(body: unknown, json: boolean): string {
  if (json) return JSON.stringify(body, null, 2);
  const value = body as { object?: string; data?: Record<string, unknown>[] } | null;
  if (value?.object === 'list' && Array.isArray(value.data)) return table(value.data);
  if (value && typeof value === 'object') return fields(value as Record<string, unknown>);
  return String(body);
}
