// The merchant object (docs/api.md §5), exactly as the payments service serialises it.

import { idOf, listOf, nullable, schemaRef, strictObject, timestamp, type FromContract } from './json-schema';

const capability = { type: 'string', enum: ['active', 'inactive', 'pending'] } as const;

export const MerchantSchema = strictObject(
  {
    id: idOf('mer', 'Unique identifier.'),
    object: { type: 'string', const: 'merchant' },
    livemode: { type: 'boolean' },
    is_default: { type: 'boolean', description: "Whether this is the account's default merchant." },
    business_name: nullable({ type: 'string', maxLength: 200 }),
    email: nullable({ type: 'string', format: 'email' }),
    country: nullable({ type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }),
    default_currency: nullable({ type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' }),
    business_type: nullable({
      type: 'string',
      enum: ['individual', 'company', 'non_profit', 'government_entity'],
    }),
    website: nullable({ type: 'string', format: 'uri' }),
    onboarding: strictObject(
      {
        status: {
          type: 'string',
          enum: ['pending', 'in_review', 'active', 'rejected', 'restricted'],
          description: 'pending -> in_review -> active | rejected; active <-> restricted (operator).',
        },
        requirements_due: {
          type: 'array',
          items: { type: 'string' },
          description: 'Details still missing before review.',
          examples: [['business_type']],
        },
        submitted_at: nullable(timestamp('When every requirement was in.')),
        decided_at: nullable(timestamp('When the last decision was made.')),
        reason: nullable({ type: 'string', description: 'Why the merchant was rejected or restricted.' }),
      },
      'Where the merchant is in onboarding.',
    ),
    capabilities: strictObject({ card_payments: capability, payouts: capability }),
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'A business that accepts payments. An account has a default merchant and may onboard more.',
);

export const MerchantListSchema = listOf('Merchant', '/v1/merchants');

/** The merchant object as the API returns it: what `serializeMerchant` must produce. */
export type Merchant = FromContract<typeof MerchantSchema>;
