import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Min,
  validate,
  ValidateNested,
  type ValidationError,
} from 'class-validator';
import { ApiError } from '../errors';
import { DATE_LIKE_PATTERN, ListQuery, RangeFilter } from './pagination';
import { ApiValidationPipe, validationErrorToApiError } from './validation';
import { IsMetadata } from './validators';

class Address {
  @IsString() line1: string;
  @IsOptional() @IsString() city?: string;
}

class CreateCustomer {
  @IsString() name: string;
  @IsOptional() @IsInt() @Min(0) balance?: number;
  @IsOptional() @IsBoolean() tax_exempt?: boolean;
  @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
}

class WithMetadata {
  @IsMetadata() metadata: Record<string, string>;
}

async function errorsFor<T extends object>(cls: new () => T, plain: object): Promise<ValidationError[]> {
  return validate(plainToInstance(cls, plain) as object, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
}

async function apiErrorFor<T extends object>(cls: new () => T, plain: object): Promise<ApiError> {
  const errors = await errorsFor(cls, plain);
  expect(errors.length).toBeGreaterThan(0);
  return validationErrorToApiError(errors);
}

describe('validationErrorToApiError', () => {
  it('a valid DTO has no errors', async () => {
    expect(
      await errorsFor(CreateCustomer, { name: 'Ada', balance: 0, address: { line1: '1 Main St' } }),
    ).toEqual([]);
  });

  it('maps an unknown property to parameter_unknown naming it', async () => {
    const error = await apiErrorFor(CreateCustomer, { name: 'Ada', nickname: 'ada' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('parameter_unknown');
    expect(error.status).toBe(400);
    expect(error.param).toBe('nickname');
    expect(error.message).toBe('Received unknown parameter: nickname');
  });

  it('maps a missing required property to parameter_missing', async () => {
    const error = await apiErrorFor(CreateCustomer, { balance: 5 });
    expect(error.code).toBe('parameter_missing');
    expect(error.status).toBe(400);
    expect(error.param).toBe('name');
    expect(error.message).toBe('Missing required param: name.');
  });

  it('maps a value of the wrong type to parameter_invalid with the constraint message', async () => {
    const error = await apiErrorFor(CreateCustomer, { name: 42 });
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('name');
    expect(error.message).toBe('name must be a string');

    const balance = await apiErrorFor(CreateCustomer, { name: 'Ada', balance: 'lots' });
    expect(balance.code).toBe('parameter_invalid');
    expect(balance.param).toBe('balance');

    const flag = await apiErrorFor(CreateCustomer, { name: 'Ada', tax_exempt: 'yes' });
    expect(flag.code).toBe('parameter_invalid');
    expect(flag.param).toBe('tax_exempt');
  });

  it('treats an explicit null for a required property as invalid, not missing', async () => {
    const error = await apiErrorFor(CreateCustomer, { name: null });
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('name');
  });

  it('names nested parameters with brackets', async () => {
    const invalid = await apiErrorFor(CreateCustomer, { name: 'Ada', address: { line1: 1 } });
    expect(invalid.code).toBe('parameter_invalid');
    expect(invalid.param).toBe('address[line1]');

    const missing = await apiErrorFor(CreateCustomer, { name: 'Ada', address: { city: 'Paris' } });
    expect(missing.code).toBe('parameter_missing');
    expect(missing.param).toBe('address[line1]');

    const unknown = await apiErrorFor(CreateCustomer, { name: 'Ada', address: { line1: 'x', zip: '1' } });
    expect(unknown.code).toBe('parameter_unknown');
    expect(unknown.param).toBe('address[zip]');
  });

  it('falls back to a generic parameter_invalid when there is nothing to name', () => {
    const error = validationErrorToApiError([]);
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBeUndefined();
  });
});

describe('IsMetadata', () => {
  it('counts characters as code points, as the document (JSON Schema maxLength) does', async () => {
    const emoji = '\u{1F600}';
    const fits = { [emoji.repeat(40)]: emoji.repeat(500) };
    expect(await errorsFor(WithMetadata, { metadata: fits })).toEqual([]);
    for (const over of [{ [emoji.repeat(41)]: 'x' }, { k: emoji.repeat(501) }]) {
      expect((await apiErrorFor(WithMetadata, { metadata: over })).param).toBe('metadata');
    }
  });
});

describe('ListQuery and RangeFilter', () => {
  it('reports created[gt] for an unparseable date', async () => {
    const error = await apiErrorFor(ListQuery, { created: { gt: 'yesterday' } });
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('created[gt]');
    expect(error.message).toBe('gt must be unix seconds or an RFC 3339 timestamp');
  });

  it('reports the other range operators by name too', async () => {
    for (const op of ['gte', 'lt', 'lte']) {
      const error = await apiErrorFor(ListQuery, { created: { [op]: '2026-13-45' } });
      expect(error.code).toBe('parameter_invalid');
      expect(error.param).toBe(`created[${op}]`);
    }
  });

  it('reports an unknown range operator as parameter_unknown', async () => {
    const error = await apiErrorFor(ListQuery, { created: { after: '1700000000' } });
    expect(error.code).toBe('parameter_unknown');
    expect(error.param).toBe('created[after]');
  });

  it('accepts every string the documented pattern matches, and refuses the rest (Schemathesis)', async () => {
    const documented = new RegExp(DATE_LIKE_PATTERN);
    const valid = [
      '0',
      '999999999999',
      '0000-01-01',
      '2026-02-30',
      '2026-12-31T23:59',
      '2026-01-01T00:00:00.123456789+0530',
    ];
    const invalid = [
      '2996-50-64',
      '2026-00-10',
      '2026-01-32',
      '2026-01-01T24:00Z',
      '2026-01-01T1',
      '1e9',
      '٣',
    ];
    for (const value of valid) {
      expect([value, documented.test(value)]).toEqual([value, true]);
      expect(await validate(plainToInstance(ListQuery, { created: { gt: value } }))).toEqual([]);
    }
    for (const value of invalid) {
      expect([value, documented.test(value)]).toEqual([value, false]);
      expect((await apiErrorFor(ListQuery, { created: { gt: value } })).param).toBe('created[gt]');
    }
  });

  it('accepts unix seconds and RFC 3339 timestamps and turns them into dates', async () => {
    const query = plainToInstance(ListQuery, {
      created: { gt: '1700000000', lte: '2026-01-02T03:04:05Z' },
    });
    expect(await validate(query, { whitelist: true, forbidNonWhitelisted: true })).toEqual([]);
    expect(query.created).toBeInstanceOf(RangeFilter);
    expect(query.created?.gt).toEqual(new Date(1_700_000_000_000));
    expect(query.created?.lte).toEqual(new Date('2026-01-02T03:04:05Z'));
  });

  it.each([['500'], ['0'], ['-1'], ['1.5'], ['ten']])(
    'reports limit=%p as parameter_invalid',
    async (limit) => {
      const error = await apiErrorFor(ListQuery, { limit });
      expect(error.code).toBe('parameter_invalid');
      expect(error.param).toBe('limit');
      expect(error.message).toBe('limit must be an integer between 1 and 100');
    },
  );

  it('accepts limits 1 and 100 (as query strings)', async () => {
    for (const limit of ['1', '100']) {
      const query = plainToInstance(ListQuery, { limit });
      expect(await validate(query, { whitelist: true, forbidNonWhitelisted: true })).toEqual([]);
      expect(query.limit).toBe(Number(limit));
    }
  });

  it('reports a malformed cursor', async () => {
    const error = await apiErrorFor(ListQuery, { starting_after: 'not an id' });
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('starting_after');
  });
});

describe('ApiValidationPipe', () => {
  const pipe = new ApiValidationPipe();
  const body = { type: 'body' as const, metatype: CreateCustomer };

  async function rejection(value: unknown, metadata = body): Promise<ApiError> {
    const error = await pipe.transform(value, metadata).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  it.each([
    ['an array', [{ name: 'Ada' }]],
    ['a string', 'name=Ada'],
    ['a number', 42],
    ['a boolean', true],
  ])('rejects %s as the body with parameter_invalid', async (_label, value) => {
    const error = await rejection(value);
    expect(error.code).toBe('parameter_invalid');
    expect(error.status).toBe(400);
    expect(error.message).toBe('The request body must be a JSON object.');
  });

  it('treats a missing body as an empty object (so required params are reported missing)', async () => {
    const error = await rejection(undefined);
    expect(error.code).toBe('parameter_missing');
    expect(error.param).toBe('name');
  });

  it('refuses a JSON null body: it is not an object (it used to create objects with every field null)', async () => {
    const error = await rejection(null);
    expect(error.code).toBe('parameter_invalid');
    expect(error.message).toBe('The request body must be a JSON object.');
  });

  it('transforms a valid body into the DTO', async () => {
    const result = await pipe.transform({ name: 'Ada', address: { line1: '1 Main St' } }, body);
    expect(result).toBeInstanceOf(CreateCustomer);
    expect((result as CreateCustomer).address).toBeInstanceOf(Address);
  });

  it('throws catalogue errors for invalid bodies', async () => {
    const unknown = await rejection({ name: 'Ada', admin: true });
    expect(unknown.code).toBe('parameter_unknown');
    expect(unknown.param).toBe('admin');
    const invalid = await rejection({ name: 'Ada', balance: -1 });
    expect(invalid.code).toBe('parameter_invalid');
    expect(invalid.param).toBe('balance');
  });

  it('validates query strings with nested parameter names', async () => {
    const query = { type: 'query' as const, metatype: ListQuery };
    const error = await rejection({ created: { gt: 'yesterday' } }, query as never);
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('created[gt]');
    const ok = (await pipe.transform({ limit: '20', created: { gt: '1700000000' } }, query)) as ListQuery;
    expect(ok).toBeInstanceOf(ListQuery);
    expect(ok.limit).toBe(20);
    expect(ok.created?.gt).toEqual(new Date(1_700_000_000_000));
  });
});
