import { ApiError } from '@paygrid/platform';
import { checkEntries } from './request-log.controller';

const entry = {
  account: 'acct_0123456789',
  livemode: false,
  request_id: 'req_abcdefghij',
  method: 'GET',
  path: '/v1/merchants',
  status: 200,
  duration_ms: 3,
  created_at: '2026-11-26T10:00:00.000Z',
};

function refusal(entries: unknown[]): { code: string; param?: string } {
  try {
    checkEntries(entries);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, param } = error as ApiError;
    return { code, param };
  }
  throw new Error('accepted');
}

describe('checkEntries (POST /internal/request-log)', () => {
  it('takes well-formed entries as they are', () => {
    expect(checkEntries([entry, { ...entry, method: 'POST', status: 402 }])).toHaveLength(2);
  });

  it('names the first entry and field that fails', () => {
    expect(refusal([entry, { ...entry, status: 700 }])).toEqual({
      code: 'parameter_invalid',
      param: 'entries[1][status]',
    });
    expect(refusal([{ ...entry, account: 'acct_x' }])).toMatchObject({ param: 'entries[0][account]' });
    expect(refusal([{ ...entry, method: 'PATCH' }])).toMatchObject({ param: 'entries[0][method]' });
    expect(refusal([{ ...entry, duration_ms: 1.5 }])).toMatchObject({ param: 'entries[0][duration_ms]' });
    expect(refusal([{ ...entry, created_at: 'yesterday' }])).toMatchObject({
      param: 'entries[0][created_at]',
    });
    expect(refusal([{ ...entry, path: '/internal/x' }])).toMatchObject({ param: 'entries[0][path]' });
    expect(refusal(['text'])).toEqual({ code: 'parameter_invalid', param: 'entries[0]' });
  });

  it('refuses a missing field as missing and an unknown one as unknown', () => {
    const { livemode: _, ...withoutMode } = entry;
    expect(refusal([withoutMode])).toEqual({ code: 'parameter_missing', param: 'entries[0][livemode]' });
    expect(refusal([{ ...entry, body: '{}' }])).toEqual({
      code: 'parameter_unknown',
      param: 'entries[0][body]',
    });
  });
});
