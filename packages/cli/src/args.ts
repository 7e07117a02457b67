// `-d key=value` pairs into a JSON object: `a[b]=c` nests, `a[]=x` appends, an integer is a
// number and true/false a boolean; `key:=<json>` takes the value as JSON (`metadata[n]:="7"`
// for a string of digits).

export class UsageError extends Error {}

function scalar(raw: string): unknown {
  if (/^-?\d{1,15}$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

export function parseData(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const match = /^([A-Za-z0-9_]+)((?:\[[A-Za-z0-9_]*\])*)(:?=)(.*)$/s.exec(pair);
    if (!match) throw new UsageError(`-d ${pair}: expected key=value (or key:=json)`);
    const [, head, brackets, operator, raw] = match;
    let value: unknown;
    if (operator === ':=') {
      try {
        value = JSON.parse(raw);
      } catch {
        throw new UsageError(`-d ${pair}: the value after := is not JSON`);
      }
    } else value = scalar(raw);
    const path = [head, ...[...brackets.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1])];
    let target: Record<string, unknown> | unknown[] = out;
    for (let i = 0; i < path.length; i++) {
      const key = path[i];
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[i + 1]);
      if (Array.isArray(target)) {
        const index = key === '' ? target.length : Number(key);
        if (last) target[index] = value;
        else target = (target[index] ??= nextIsIndex ? [] : {}) as Record<string, unknown> | unknown[];
      } else if (last) target[key] = value;
      else target = (target[key] ??= nextIsIndex ? [] : {}) as Record<string, unknown> | unknown[];
    }
  }
  return out;
}
