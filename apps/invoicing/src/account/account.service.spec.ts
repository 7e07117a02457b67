// The business profile is read once per transaction (profileInTx), and read again after any
// write to it in that transaction.

import type { Tx } from '@paygrid/platform';
import { profileInTx, rememberAccountName } from './account.service';

function fakeTx(): { tx: Tx; statements: string[]; name: { value: string } } {
  const statements: string[] = [];
  const name = { value: 'Northwind' };
  const tx = {
    schema: 'invoicing',
    query: async (sql: string, params: unknown[]) => {
      statements.push(sql.trim().split(/\s+/)[0]);
      if (sql.trim().startsWith('insert')) name.value = params[1] as string;
      return [{ account_id: params[0], account_name: name.value, version: 1, profile: {} }];
    },
  } as unknown as Tx;
  return { tx, statements, name };
}

describe('profileInTx', () => {
  it('reads the profile once per transaction and account', async () => {
    const { tx, statements } = fakeTx();
    const first = await profileInTx(tx, 'acct_1');
    const second = await profileInTx(tx, 'acct_1');
    expect(second).toBe(first);
    expect(statements).toEqual(['select']);
    await profileInTx(tx, 'acct_2');
    expect(statements).toEqual(['select', 'select']);
  });

  it('reads again in another transaction', async () => {
    const a = fakeTx();
    const b = fakeTx();
    await profileInTx(a.tx, 'acct_1');
    await profileInTx(b.tx, 'acct_1');
    expect(a.statements).toEqual(['select']);
    expect(b.statements).toEqual(['select']);
  });

  it('reads again after the transaction wrote the profile', async () => {
    const { tx, statements } = fakeTx();
    expect((await profileInTx(tx, 'acct_1'))?.account_name).toBe('Northwind');
    await rememberAccountName(tx, 'acct_1', 'Northwind Traders', new Date());
    expect((await profileInTx(tx, 'acct_1'))?.account_name).toBe('Northwind Traders');
    expect(statements).toEqual(['select', 'insert', 'select']);
  });
});
