// Cursor pagination shared by every list (docs/api.md §4): `limit` 1-100 (default 10),
// `starting_after` or `ending_before` (an id, not both), newest first by (created_at, id),
// stable while rows are inserted. Also the `created[gt|gte|lt|lte]` range filters.

import { Transform, Type } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { QueryOptions } from '../db/tx';
import { ApiError } from '../errors';
import type { Tenant } from '../tenancy';

/**
 * Unix seconds, or an RFC 3339 date with an optional time (hours and minutes at least) and
 * zone: the one grammar both the validation below and the document (openapi/request-schemas.ts)
 * state, in ASCII digits (`\\d` is any Unicode digit to a Python generator). Months, days,
 * hours and minutes are bounded, so every string it matches is a date V8 reads (the document
 * said `\\d{2}` months, and Schemathesis's '2996-50-64' matched it but was refused); like
 * Date, a day past the month's end rolls over (02-30 is 03-02).
 */
export const DATE_LIKE_PATTERN =
  '^([0-9]{1,12}|[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])' +
  '(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?(Z|[+-]([01][0-9]|2[0-3]):?[0-5][0-9])?)?)$';
const DATE_LIKE = new RegExp(DATE_LIKE_PATTERN);

function toDate(value: unknown): unknown {
  if (typeof value !== 'string' || !DATE_LIKE.test(value)) return value;
  if (/^[0-9]{1,12}$/.test(value)) return new Date(Number(value) * 1000);
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? value : parsed;
}

function IsDateLike(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDateLike',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be unix seconds or an RFC 3339 timestamp` },
      validator: { validate: (value: unknown) => value instanceof Date && !Number.isNaN(value.getTime()) },
    });
}

/**
 * A query-string integer: digits only. Number('1e2') is 100 and Number('0x10') is 16, which
 * are not what the client wrote; anything but digits stays a string and fails @IsInt.
 */
export const digitsToNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value;

/** `created[gt]=...` etc., as unix seconds or RFC 3339. */
export class RangeFilter {
  @IsOptional() @Transform(({ value }) => toDate(value)) @IsDateLike() gt?: Date;
  @IsOptional() @Transform(({ value }) => toDate(value)) @IsDateLike() gte?: Date;
  @IsOptional() @Transform(({ value }) => toDate(value)) @IsDateLike() lt?: Date;
  @IsOptional() @Transform(({ value }) => toDate(value)) @IsDateLike() lte?: Date;
}

export class ListQuery {
  @IsOptional()
  @JSONSchema({ description: 'How many objects to return, 1 to 100 (default 10).' })
  // Digits only: Number('1e2') is 100 and Number('0x10') 16, which are not what was sent.
  @Transform(digitsToNumber)
  @IsInt({ message: 'limit must be an integer between 1 and 100' })
  @Min(1, { message: 'limit must be an integer between 1 and 100' })
  @Max(100, { message: 'limit must be an integer between 1 and 100' })
  limit?: number;

  @IsOptional()
  @JSONSchema({ description: 'Cursor: the id of the last object of the previous page; returns older ones.' })
  @IsString()
  @Matches(/^[a-z]+_[0-9A-Za-z]{8,64}$/, { message: 'starting_after must be an object id' })
  starting_after?: string;

  @IsOptional()
  @JSONSchema({ description: 'Cursor: the id of the first object of the next page; returns newer ones.' })
  @IsString()
  @Matches(/^[a-z]+_[0-9A-Za-z]{8,64}$/, { message: 'ending_before must be an object id' })
  ending_before?: string;

  @IsOptional()
  @JSONSchema({ description: 'Only objects created in this range: `created[gt]`, `[gte]`, `[lt]`, `[lte]`.' })
  @ValidateNested()
  @Type(() => RangeFilter)
  created?: RangeFilter;
}

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/** A list answer: `page`'s rows as `serialize` makes each (the list envelope of docs/api.md). */
export function listOf<R, T>(page: Page<unknown> & { rows: R[] }, serialize: (row: R) => T): Page<T> {
  return {
    object: page.object,
    data: page.rows.map((row) => serialize(row)),
    has_more: page.has_more,
    url: page.url,
  };
}

/**
 * A page of text rows (PageQuery.textRows) as the body of the answer, each row written as its
 * object's JSON by `write`: the same JSON as listOf's page, without making objects of the rows
 * and serialising them again. The controller answers it as `application/json`.
 */
export function jsonPage<R>(page: Page<unknown> & { rows: R[] }, write: (row: R) => string): string {
  let data = '';
  for (const row of page.rows) data += data ? `,${write(row)}` : write(row);
  return `{"object":"list","data":[${data}],"has_more":${page.has_more},"url":${JSON.stringify(page.url)}}`;
}

/** Appends `column op $n` clauses for a range filter. */
export function rangeClauses(column: string, range: RangeFilter | undefined, params: unknown[]): string[] {
  if (!range) return [];
  const ops: [keyof RangeFilter, string][] = [
    ['gt', '>'],
    ['gte', '>='],
    ['lt', '<'],
    ['lte', '<='],
  ];
  const clauses: string[] = [];
  for (const [key, op] of ops) {
    const value = range[key];
    if (value !== undefined) {
      params.push(value);
      clauses.push(`${column} ${op} $${params.length}`);
    }
  }
  return clauses;
}

export interface PageQuery {
  /**
   * `schema.table` (or a parenthesised subquery with an alias); must have id and the sort
   * column, and the filters in `where` must scope it to the caller's account and mode.
   */
  table: string;
  /** Extra where-clauses using $n placeholders numbered after `params`. */
  where: string[];
  params: unknown[];
  list: ListQuery;
  url: string;
  columns?: string;
  /** The timestamp pages are ordered by, with id (default created_at); `created[...]` filters it. */
  sortColumn?: string;
  /** The rows as their columns' text, in `columns`' order (db/text-rows.ts; see jsonPage). */
  textRows?: boolean;
}

type Queryable = { query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]> };

/**
 * Runs a keyset-paginated query. The cursor object must be visible under the same filters
 * (same account and mode), or the request is a 404 like any other foreign id.
 */
export async function paginate<R>(db: Queryable, q: PageQuery): Promise<Page<R> & { rows: R[] }> {
  const { list } = q;
  if (list.starting_after && list.ending_before) {
    throw new ApiError(
      'parameter_invalid',
      'Pass starting_after or ending_before, not both.',
      'ending_before',
    );
  }
  const limit = list.limit ?? 10;
  const cursorId = list.starting_after ?? list.ending_before;
  const ascending = Boolean(list.ending_before);
  const sort = q.sortColumn ?? 'created_at';
  const base = q.where.join(' and ') || 'true';
  const params = [...q.params];
  const where = [...q.where];
  if (cursorId) {
    params.push(cursorId);
    const cursorParam = `$${params.length}`;
    const [cursor] = await db.query<{ id: string }>(
      `select id from ${q.table} where id = ${cursorParam} and ${base}`,
      params,
    );
    if (!cursor) {
      throw new ApiError(
        'resource_missing',
        `No such object: '${cursorId}'`,
        list.starting_after ? 'starting_after' : 'ending_before',
      );
    }
    where.push(
      `(${sort}, id) ${ascending ? '>' : '<'} ((select ${sort} from ${q.table} where id = ${cursorParam}), ${cursorParam})`,
    );
  }
  where.push(...rangeClauses(sort, list.created, params));
  params.push(limit + 1);
  const order = ascending ? 'asc' : 'desc';
  const rows = await db.query<R>(
    `select ${q.columns ?? '*'} from ${q.table} where ${where.join(' and ') || 'true'}
     order by ${sort} ${order}, id ${order} limit $${params.length}`,
    params,
    q.textRows ? { textRows: true } : undefined,
  );
  const has_more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (ascending) page.reverse();
  return { object: 'list', data: page, rows: page, has_more, url: q.url };
}

/** One page of `table`'s rows owned by `tenant` (account and mode), plus any `where` clauses. */
export function paginateOwned<R extends { id: string }>(
  db: Queryable,
  tenant: Tenant,
  q: Omit<PageQuery, 'where' | 'params'> & { where?: string[] },
): Promise<Page<R> & { rows: R[] }> {
  // Object.assign, not a leading spread: on Node 20 (V8 11.3) every member added after `{ ...x }` takes a slow path, ~1 us each (bench/README.md finding 56).
  return paginate<R>(
    db,
    Object.assign({}, q, {
      where: ['account_id = $1', 'livemode = $2', ...(q.where ?? [])],
      params: [tenant.account, tenant.livemode],
    }),
  );
}
