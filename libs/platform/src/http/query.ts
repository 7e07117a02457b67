// The query-string parser every service installs: flat keys as Fastify's default parser
// gives them, plus one level of brackets, so `created[gte]=...&amount[lt]=...` reach the
// DTOs as `{ created: { gte } , amount: { lt } }` (docs/api.md §4's range filters).
// A repeated key becomes an array, as with the default parser.

type QueryValue = string | string[] | Record<string, string | string[]>;

function add<T extends Record<string, unknown>>(target: T, key: string, value: string): void {
  const existing = target[key];
  (target as Record<string, unknown>)[key] =
    existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
}

export function parseQuery(input: string): Record<string, QueryValue> {
  const result: Record<string, QueryValue> = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(input)) {
    const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(rawKey);
    if (!nested) {
      add(result, rawKey, value);
      continue;
    }
    const [, outer, inner] = nested;
    const current = result[outer];
    if (current !== undefined && (typeof current !== 'object' || Array.isArray(current))) {
      // `a=1&a[b]=2`: keep the flat form; validation will name the odd parameter.
      add(result, rawKey, value);
      continue;
    }
    const group = (current ?? Object.create(null)) as Record<string, string | string[]>;
    add(group, inner, value);
    result[outer] = group;
  }
  return { ...result };
}
