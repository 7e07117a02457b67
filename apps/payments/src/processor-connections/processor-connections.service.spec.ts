import type { Clock, Database } from '@paygrid/platform';
import { ProcessorConnectionsService } from './processor-connections.service';
import type { ProcessorDefinition } from '../connectors/processor';

describe('ProcessorConnectionsService without PROCESSOR_SECRETS_KEYS', () => {
  // No database call may happen: the refusal comes before anything is read or written.
  const db = new Proxy({} as Database, {
    get: () => {
      throw new Error('the database must not be reached');
    },
  });
  const service = new ProcessorConnectionsService(
    db,
    { now: () => new Date() } as Clock,
    { stripe: {} as ProcessorDefinition },
    undefined,
  );

  it('refuses to store credentials with 409 processor_secrets_unavailable', async () => {
    await expect(
      service.create(
        { account: 'acct_1', livemode: true },
        { processor: 'stripe', credentials: { secret_key: 'sk_live_x', webhook_signing_secret: 'whsec_x' } },
      ),
    ).rejects.toMatchObject({ code: 'processor_secrets_unavailable', status: 409 });
    await expect(service.reencryptAll()).rejects.toMatchObject({ code: 'processor_secrets_unavailable' });
  });
});
