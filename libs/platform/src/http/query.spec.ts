import { parseQuery } from './query';

describe('parseQuery', () => {
  it('keeps flat keys and nests one level of brackets', () => {
    expect(parseQuery('limit=10&created[gte]=1700000000&amount[lt]=500&currency=usd')).toEqual({
      limit: '10',
      created: { gte: '1700000000' },
      amount: { lt: '500' },
      currency: 'usd',
    });
  });

  it('decodes, repeats into arrays, and leaves deeper brackets flat', () => {
    expect(parseQuery('a=1&a=2&b%5Bgt%5D=x%20y&c[d][e]=1')).toEqual({
      a: ['1', '2'],
      b: { gt: 'x y' },
      'c[d][e]': '1',
    });
  });

  it('does not let __proto__ pollute anything', () => {
    const parsed = parseQuery('__proto__[x]=1');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(parsed).toBeDefined();
  });
});
