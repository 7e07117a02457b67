#!/usr/bin/env node
// Writes stripe-mock fixture files that drive the PaymentIntent outcomes its bundled fixtures
// do not give (a confirmed PaymentIntent comes back `requires_payment_method` by default):
//   succeeded.json        status succeeded
//   requires_action.json  status requires_action (3-D Secure asked for)
//   declined.json         requires_payment_method with an insufficient_funds card error
// Each is stripe-mock's own bundled fixtures file with only the payment_intent resource
// changed, so every other answer stays the bundled one.
//
//   node infra/stripe-mock-fixtures.mjs <bundled fixtures3.json> <output dir>

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [bundled, out] = process.argv.slice(2);
if (!bundled || !out) {
  console.error('usage: stripe-mock-fixtures.mjs <bundled fixtures3.json> <output dir>');
  process.exit(2);
}
const fixtures = JSON.parse(readFileSync(bundled, 'utf8'));
const base = fixtures.resources.payment_intent;

const OUTCOMES = {
  succeeded: { status: 'succeeded', last_payment_error: null, next_action: null },
  requires_action: {
    status: 'requires_action',
    last_payment_error: null,
    next_action: { type: 'redirect_to_url', redirect_to_url: { url: 'https://hooks.stripe.com/3d_secure', return_url: null } },
  },
  declined: {
    status: 'requires_payment_method',
    next_action: null,
    last_payment_error: {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
  },
};

mkdirSync(out, { recursive: true });
for (const [name, change] of Object.entries(OUTCOMES)) {
  const file = join(out, `${name}.json`);
  const resources = { ...fixtures.resources, payment_intent: { ...base, ...change } };
  writeFileSync(file, JSON.stringify({ ...fixtures, resources }));
}
console.log(out);
