import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { InternalContext } from '@paygrid/contracts';
import { ApiError } from '../errors';
import { OperatorOnly, Public, RequireScope } from './context';
import { InternalContextGuard } from './guard';
import { handOverContext, signContext } from './internal-auth';

const SECRET = 'internal-secret-0123456789abcdef0123456789';
const URL = '/internal/merchants/mer_12345678/decision';

class Routes {
  @OperatorOnly()
  decide() {}

  @RequireScope('merchants:write')
  update() {}

  @Public()
  page() {}
}

const contexts: Record<InternalContext['kind'], InternalContext> = {
  api: {
    kind: 'api',
    account: 'acct_12345678',
    account_name: 'Acme',
    livemode: true,
    key_id: 'key_12345678',
    scopes: ['merchants:write'],
    groupings: ['payments'],
    request_id: 'req_12345678',
    issued_at: 0,
  },
  public: { kind: 'public', request_id: 'req_12345678', issued_at: 0 },
  operator: { kind: 'operator', request_id: 'req_12345678', issued_at: 0 },
};

/**
 * The guard's verdict on a request to `handler` with `kind`'s context, signed into headers
 * (the default: from another process) or handed over on the raw request (in process).
 */
function attempt(
  handler: keyof Routes,
  kind: InternalContext['kind'] | 'unsigned',
  how: 'signed' | 'handed over' = 'signed',
  raw: object = {},
): true | string {
  const context = kind === 'unsigned' ? undefined : { ...contexts[kind], issued_at: Date.now() };
  const headers = context && how === 'signed' ? signContext(SECRET, context, 'POST', URL) : {};
  if (context && how === 'handed over') handOverContext(raw, context);
  const request = { method: 'POST', url: URL, headers, raw };
  const execution = {
    switchToHttp: () => ({ getRequest: () => request }),
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
  } as unknown as ExecutionContext;
  try {
    return new InternalContextGuard(new Reflector(), SECRET).canActivate(execution);
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

describe('InternalContextGuard and operator-only routes', () => {
  it('opens an operator-only route to the operator context alone', () => {
    expect(attempt('decide', 'operator')).toBe(true);
    // An API key's context is refused whatever its scopes, and so is a public page's.
    expect(attempt('decide', 'api')).toBe('insufficient_scope');
    expect(attempt('decide', 'public')).toBe('insufficient_scope');
    expect(attempt('decide', 'unsigned')).toBe('authentication_required');
  });

  it('does not let the operator context stand in for an API key', () => {
    expect(attempt('update', 'api')).toBe(true);
    expect(attempt('update', 'operator')).toBe('authentication_required');
    expect(attempt('page', 'operator')).toBe(true);
  });
});

describe('a context handed over in process (the embedded gateway)', () => {
  it('is taken without a signature, and the same scope rules apply to it', () => {
    expect(attempt('update', 'api', 'handed over')).toBe(true);
    expect(attempt('decide', 'operator', 'handed over')).toBe(true);
    expect(attempt('decide', 'api', 'handed over')).toBe('insufficient_scope');
    expect(attempt('update', 'operator', 'handed over')).toBe('authentication_required');
  });

  it('cannot be set by anything but handOverContext: a look-alike key is no context', () => {
    const context = { ...contexts.api, issued_at: Date.now() };
    // What a client could make a request object carry (a parsed header or body), and a symbol
    // of the same description: neither is the module's own symbol.
    expect(attempt('update', 'unsigned', 'signed', { 'paygrid.internal-context': context })).toBe(
      'authentication_required',
    );
    expect(attempt('update', 'unsigned', 'signed', { [Symbol('paygrid.internal-context')]: context })).toBe(
      'authentication_required',
    );
    expect(
      attempt('update', 'unsigned', 'signed', { [Symbol.for('paygrid.internal-context')]: context }),
    ).toBe('authentication_required');
  });
});
