// The serializer and the published Merchant schema must agree: every field it emits is in
// the schema (additionalProperties: false) with the right type, and none is missing.

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { API_SCHEMAS } from '@paygrid/contracts';
import { serializeMerchant, type MerchantRow } from './merchants.service';

const ID = 'https://paygrid.invalid/schemas.json';
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ $id: ID, components: { schemas: API_SCHEMAS } });
const validate = ajv.compile({ $ref: `${ID}#/components/schemas/Merchant` });

function row(overrides: Partial<MerchantRow> = {}): MerchantRow {
  const at = new Date('2026-01-15T12:00:00Z');
  return {
    id: 'mer_4fQk2nT8bW1xZc9LmP0aRs7e',
    account_id: 'acct_4fQk2nT8bW1xZc9LmP0aRs7e',
    livemode: false,
    is_default: false,
    business_name: null,
    email: null,
    country: null,
    default_currency: null,
    business_type: null,
    website: null,
    onboarding_status: 'pending',
    submitted_at: null,
    decided_at: null,
    decision_reason: null,
    metadata: {},
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}

describe('serializeMerchant and the Merchant schema', () => {
  it.each([
    ['a new, empty merchant', row()],
    [
      'an active merchant with every detail',
      row({
        business_name: 'Acme Ltd',
        email: 'ops@acme.test',
        country: 'GB',
        default_currency: 'GBP',
        business_type: 'company',
        website: 'https://acme.test',
        onboarding_status: 'active',
        submitted_at: new Date('2026-01-15T12:00:00Z'),
        decided_at: new Date('2026-01-15T12:00:00Z'),
        metadata: { crm_id: '6735' },
      }),
    ],
    [
      'a rejected merchant',
      row({ onboarding_status: 'rejected', decision_reason: 'Rejected by the sandbox.' }),
    ],
  ])('%s matches', (_label, merchant) => {
    const ok = validate(serializeMerchant(merchant));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('a field the schema does not know is refused', () => {
    expect(validate({ ...serializeMerchant(row()), secret_field: 1 })).toBe(false);
  });
});
