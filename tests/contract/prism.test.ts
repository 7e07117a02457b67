// Prism in front of the platform (PAYGRID_PRISM=1 in CI, tests/support/platform.ts) must
// catch a response that breaks the document. Here the document Prism checks is broken on
// purpose (the customer list must carry a field the server never sends): the call fails
// loudly; a call the document describes passes, and a request that breaks the document on
// purpose still gets the server's own answer.

import { behindPrism, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await behindPrism(await startPlatform(), (doc) => {
    doc.components.schemas.CustomerList.required.push('prism_canary');
    return doc;
  });
  account = await platform.newAccount(['payments', 'invoicing']);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

it('fails the call whose response breaks the document', async () => {
  await expect(platform.api(account.testKey, 'GET', '/v1/customers')).rejects.toThrow(
    /prism: the response to GET \/v1\/customers breaks the OpenAPI document: .*prism_canary/,
  );
});

it('passes a response that keeps the document, through Prism', async () => {
  const events = await platform.api(account.testKey, 'GET', '/v1/events');
  expect(events.status).toBe(200);
  expect(events.headers.get('access-control-expose-headers')).toBe('*');
});

it('lets the server answer a request that breaks the document on purpose', async () => {
  const response = await platform.api(account.testKey, 'POST', '/v1/customers', { name: 'x', nickname: 'y' });
  expect(response.status).toBe(400);
  expect(response.body.error).toMatchObject({ code: 'parameter_unknown', param: 'nickname' });
});
