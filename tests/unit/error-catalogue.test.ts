// docs/errors.md is the public error catalogue; ERROR_CATALOGUE is the one the code uses.
// They must agree both ways, row for row.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOGUE, ERROR_CODES, isErrorCode, type ErrorType } from '@paygrid/contracts';

const DOC_PATH = join(__dirname, '..', '..', 'docs', 'errors.md');
const doc = readFileSync(DOC_PATH, 'utf8');

interface Row {
  line: number;
  code: string;
  status: number;
  type: string;
  meaning: string;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

const unquote = (cell: string): string => cell.replace(/^`(.*)`$/, '$1');

/** Every markdown table in the document (outside fenced code blocks), as runs of `|` lines. */
function tables(markdown: string): { start: number; lines: string[] }[] {
  const found: { start: number; lines: string[] }[] = [];
  let inFence = false;
  let current: { start: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((line, i) => {
    if (line.trim().startsWith('```')) inFence = !inFence;
    const isRow = !inFence && line.trim().startsWith('|');
    if (isRow) {
      current ??= { start: i + 1, lines: [] };
      current.lines.push(line);
    } else if (current) {
      found.push(current);
      current = undefined;
    }
  });
  if (current) found.push(current);
  return found;
}

function parseCatalogueTable(markdown: string): Row[] {
  const all = tables(markdown);
  if (all.length !== 1) throw new Error(`expected exactly one table in docs/errors.md, found ${all.length}`);
  const [{ start, lines }] = all;
  const [header, separator, ...body] = lines;
  expect(cells(header)).toEqual(['code', 'HTTP status', 'type', 'meaning']);
  expect(cells(separator).every((c) => /^:?-{3,}:?$/.test(c))).toBe(true);
  expect(cells(separator)).toHaveLength(4);
  return body.map((line, i) => {
    const row = cells(line);
    if (row.length !== 4)
      throw new Error(`docs/errors.md:${start + 2 + i}: expected 4 cells, got ${row.length}`);
    const [code, status, type, meaning] = row;
    if (!/^\d{3}$/.test(status)) throw new Error(`docs/errors.md:${start + 2 + i}: bad status ${status}`);
    return { line: start + 2 + i, code: unquote(code), status: Number(status), type: unquote(type), meaning };
  });
}

const rows = parseCatalogueTable(doc);
const documented = new Map(rows.map((r) => [r.code, r]));

/** Which types each HTTP status may carry. */
const TYPES_BY_STATUS: Record<number, readonly ErrorType[]> = {
  400: ['invalid_request_error'],
  401: ['authentication_error'],
  402: ['payment_error'],
  403: ['permission_error'],
  404: ['invalid_request_error'],
  405: ['invalid_request_error'],
  409: ['invalid_request_error', 'idempotency_error'],
  413: ['invalid_request_error'],
  415: ['invalid_request_error'],
  422: ['invalid_request_error', 'idempotency_error'],
  429: ['rate_limit_error'],
  500: ['api_error'],
  503: ['api_error'],
  504: ['api_error'],
};

describe('docs/errors.md <-> ERROR_CATALOGUE', () => {
  it('the table has one row per catalogue code', () => {
    expect(rows.length).toBe(ERROR_CODES.length);
  });

  it.each(ERROR_CODES)('documents %s with the catalogue status and type', (code) => {
    const row = documented.get(code);
    expect(row).toBeDefined();
    expect({ code, status: row?.status, type: row?.type }).toEqual({
      code,
      status: ERROR_CATALOGUE[code].status,
      type: ERROR_CATALOGUE[code].type,
    });
  });

  it('documents no code that is not in the catalogue', () => {
    const extra = rows.filter((r) => !isErrorCode(r.code)).map((r) => `${r.code} (line ${r.line})`);
    expect(extra).toEqual([]);
  });

  it('documents each code once', () => {
    const duplicates = rows.map((r) => r.code).filter((c, i, all) => all.indexOf(c) !== i);
    expect(duplicates).toEqual([]);
  });

  it('lists the codes in catalogue order', () => {
    expect(rows.map((r) => r.code)).toEqual(ERROR_CODES);
  });

  it('gives every code a meaning at least as informative as the catalogue description', () => {
    const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]{4,}/g) ?? [];
    for (const row of rows) {
      if (!isErrorCode(row.code)) continue;
      const description = ERROR_CATALOGUE[row.code].description;
      expect({ code: row.code, long: row.meaning.length >= description.length }).toEqual({
        code: row.code,
        long: true,
      });
      // most of the description's substantive words are there
      const meaningWords = new Set(words(row.meaning.replace(/`/g, '')));
      const key = words(description);
      const covered = key.filter((w) => meaningWords.has(w)).length;
      expect({ code: row.code, covered: covered >= Math.ceil(key.length / 2) }).toEqual({
        code: row.code,
        covered: true,
      });
    }
  });
});

describe('the intro documents the envelope', () => {
  const intro = doc.slice(0, doc.indexOf('| code |'));

  it('names every envelope field, Request-Id, decline_code and the 5xx rule', () => {
    for (const field of ['type', 'code', 'message', 'param', 'decline_code', 'request_id']) {
      expect(intro).toContain(`\`${field}\``);
    }
    expect(intro).toContain('Request-Id');
    expect(intro).toMatch(/5xx/);
    expect(intro).toMatch(/disclose\s+nothing\s+internal/);
  });

  it('its example is a valid envelope', () => {
    const match = /```json\n([\s\S]*?)```/.exec(intro);
    expect(match).not.toBeNull();
    const example = JSON.parse(match?.[1] ?? '') as { error: Record<string, unknown> };
    expect(Object.keys(example)).toEqual(['error']);
    const { type, code, message, request_id } = example.error;
    expect(typeof code === 'string' && isErrorCode(code)).toBe(true);
    expect(type).toBe(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].type);
    expect(typeof message).toBe('string');
    expect(request_id).toMatch(/^req_[0-9A-Za-z]{8,64}$/);
    for (const key of Object.keys(example.error)) {
      expect(['type', 'code', 'message', 'param', 'decline_code', 'request_id']).toContain(key);
    }
  });
});

describe('ERROR_CATALOGUE consistency', () => {
  it('ERROR_CODES is the list of catalogue keys', () => {
    expect(ERROR_CODES).toEqual(Object.keys(ERROR_CATALOGUE));
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('not_a_code')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });

  it.each(ERROR_CODES)('%s is snake_case', (code) => {
    expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it.each(ERROR_CODES)('%s has a status that fits its type', (code) => {
    const { status, type } = ERROR_CATALOGUE[code];
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(600);
    expect(TYPES_BY_STATUS[status]).toBeDefined();
    expect(TYPES_BY_STATUS[status]).toContain(type);
  });

  it('each type is used only with its statuses', () => {
    for (const code of ERROR_CODES) {
      const { status, type } = ERROR_CATALOGUE[code];
      if (type === 'authentication_error') expect(status).toBe(401);
      if (type === 'payment_error') expect(status).toBe(402);
      if (type === 'permission_error') expect(status).toBe(403);
      if (type === 'rate_limit_error') expect(status).toBe(429);
      if (type === 'api_error') expect(status).toBeGreaterThanOrEqual(500);
      if (type === 'idempotency_error') expect([409, 422]).toContain(status);
      if (status >= 500) expect(type).toBe('api_error');
    }
  });

  it('every code has a sentence as description', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_CATALOGUE[code].description).toMatch(/^[A-Z].*\.$/);
    }
  });
});
