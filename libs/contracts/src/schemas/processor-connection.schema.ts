// The processor connection object (docs/api.md Part 2), exactly as the payments service
// serialises it. Credentials are write-only: no property of this object carries them.

import { idOf, listOf, nullable, strictObject, timestamp, type FromContract } from './json-schema';

export const ProcessorConnectionSchema = strictObject(
  {
    id: idOf('pcon', 'Unique identifier.'),
    object: { type: 'string', const: 'processor_connection' },
    livemode: { type: 'boolean' },
    processor: { type: 'string', enum: ['stripe'] },
    status: {
      type: 'string',
      enum: ['active', 'failing', 'disabled'],
      description:
        'active <-> failing (the last verification was refused); either -> disabled (final). At most one connection per account and mode is not disabled; live payments go to it.',
    },
    description: nullable({ type: 'string', maxLength: 500 }),
    credentials: strictObject(
      {
        secret_key_last4: {
          type: 'string',
          maxLength: 4,
          description: 'The last 4 characters of the API key.',
        },
      },
      'What is shown of the credentials: never the credentials themselves.',
    ),
    processor_account: nullable({
      type: 'string',
      description: "The processor's account id (Stripe: `acct_...`), known once verified.",
    }),
    verification: strictObject(
      {
        status: { type: 'string', enum: ['unverified', 'succeeded', 'failed'] },
        message: nullable({ type: 'string', description: 'Why the processor refused the credentials.' }),
        verified_at: nullable(timestamp('When the processor was last asked.')),
      },
      'The last verification (`POST /v1/processor-connections/{id}/verify`).',
    ),
    disabled_at: nullable(timestamp('When it was disabled.')),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  "An account's credentials for a payment processor in one mode; live payments go to the active live connection.",
);

export const ProcessorConnectionListSchema = listOf('ProcessorConnection', '/v1/processor-connections');

/** The type of the processor connection on the wire, derived from its schema: what `serializeProcessorConnection` returns. */
export type ProcessorConnection = FromContract<typeof ProcessorConnectionSchema>;
