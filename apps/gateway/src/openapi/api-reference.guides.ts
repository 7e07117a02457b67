// The guides at the top of /docs: a quick start, the sandbox's test cards (read from the
// document: the payments service publishes its connector's table as `x-test-cards`), and how
// to verify a webhook, with @paygrid/sdk and with nothing but node:crypto (Standard Webhooks).

import type { JsonSchema } from '@paygrid/contracts';
import type { OpenApiDocument } from './openapi.document';

export interface TestCard {
  number: string;
  outcome: string;
  behaviour: string;
}

/** The sandbox's cards, from wherever a schema of the document carries `x-test-cards`. */
export function testCardsOf(doc: OpenApiDocument): TestCard[] {
  const found: TestCard[] = [];
  const visit = (schema: JsonSchema | undefined) => {
    if (!schema || typeof schema !== 'object') return;
    if (Array.isArray(schema['x-test-cards']) && !found.length)
      found.push(...(schema['x-test-cards'] as TestCard[]));
    Object.values(schema.properties ?? {}).forEach(visit);
  };
  Object.values(doc.components.schemas).forEach(visit);
  return found;
}

export interface Guide {
  id: string;
  title: string;
  /** Plain text, for the search. */
  text: string;
  html: string;
}

const code = (escape: (s: string) => string, text: string, label: string) =>
  `<pre tabindex="0" title="${escape(label)}"><code>${escape(text)}</code></pre>`;

export function guidesOf(doc: OpenApiDocument, escape: (s: string) => string): Guide[] {
  const base = doc.servers[0]?.url ?? '';
  const quick = {
    curl: `export PAYGRID_KEY=sk_test_...   # from your operator (npm start prints one)
curl -X POST ${base}/v1/payment-links \\
  -H "Authorization: Bearer $PAYGRID_KEY" \\
  -H 'content-type: application/json' \\
  -d '{"amount":1500,"currency":"EUR","description":"A book"}'`,
    sdk: `npm install @paygrid/sdk

import { Paygrid } from '@paygrid/sdk';
const paygrid = new Paygrid(process.env.PAYGRID_KEY!, { baseUrl: '${base}' });
const link = await paygrid.paymentLinks.create({ amount: 1500, currency: 'EUR', description: 'A book' });
console.log(link.url); // open it and pay with 4242 4242 4242 4242`,
    cli: `npx paygrid login --key $PAYGRID_KEY --base-url ${base}
npx paygrid listen --forward-to http://localhost:4242/hooks   # prints whsec_... for this session
npx paygrid trigger payment.succeeded                          # in another terminal
npx paygrid logs tail                                          # your API requests as they happen`,
  };
  const cards = testCardsOf(doc);
  const cardRows = cards
    .map(
      (c) =>
        `<tr><td><code>${escape(c.number)}</code></td><td><code>${escape(c.outcome)}</code></td><td>${escape(c.behaviour).replace(/`([^`]+)`/g, '<code>$1</code>')}</td></tr>`,
    )
    .join('');
  const sdkVerify = `import { webhooks } from '@paygrid/sdk';

// Express: keep the raw body, the signature covers its exact bytes.
app.post('/hooks', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = webhooks.verify(req.body, req.headers, process.env.PAYGRID_WEBHOOK_SECRET!);
  } catch {
    return res.sendStatus(400); // not from Paygrid, altered, or older than 5 minutes
  }
  if (event.type === 'payment.succeeded') fulfil(event.data.object.id); // typed per event type
  res.sendStatus(200); // any 2xx acknowledges; deliveries are retried otherwise
});`;
  const plainVerify = `import { createHmac, timingSafeEqual } from 'node:crypto';

// Standard Webhooks: HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<raw body>",
// keyed with the base64 part of the whsec_ secret.
function verify(body: string, headers: Record<string, string>, secret: string) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) throw new Error('stale');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  const ok = headers['webhook-signature'].split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw new Error('bad signature');
  return JSON.parse(body); // then drop an event id you have already handled
}`;
  return [
    {
      id: 'quick-start',
      title: 'Quick start',
      text: `quick start first request key curl sdk cli listen trigger payment link ${quick.curl} ${quick.sdk} ${quick.cli}`,
      html: `<p>1. Create a payment link with a test key (<code>sk_test_</code>: sandbox data, no real money):</p>
${code(escape, quick.curl, 'Quick start with curl')}
<p>2. The same with the TypeScript SDK, <code>@paygrid/sdk</code>:</p>${code(escape, quick.sdk, 'Quick start with the SDK')}
<p>3. Open the link's <code>url</code> and pay with a <a href="#test-cards">test card</a>.</p>
<p>4. Receive the events on your laptop, no tunnel needed, with the <code>paygrid</code> CLI:</p>
${code(escape, quick.cli, 'Quick start with the CLI')}
<p>Then <a href="#webhooks-guide">verify each webhook</a> and look up the operations below.</p>`,
    },
    {
      id: 'test-cards',
      title: 'Test cards',
      text: `test cards sandbox decline 3-D Secure ${cards.map((c) => `${c.number} ${c.outcome} ${c.behaviour}`).join(' ')}`,
      html: `<p>With a test key, payments go to the sandbox processor, which accepts only these numbers (any expiry in the future, any CVC); any other number is declined. Live keys refuse them.</p>
<div class="scroll" tabindex="0"><table class="cards"><thead><tr><th>Number</th><th>Outcome</th><th>What it does</th></tr></thead><tbody>${cardRows}</tbody></table></div>`,
    },
    {
      id: 'webhooks-guide',
      title: 'Verifying webhooks',
      text: `webhooks verify signature secret whsec standard webhooks hmac webhook-id webhook-timestamp webhook-signature ${sdkVerify} ${plainVerify}`,
      html: `<p>Each delivery is signed (Standard Webhooks): headers <code>webhook-id</code> (the event id, the same on every retry), <code>webhook-timestamp</code> and <code>webhook-signature</code>. Verify the raw body with the endpoint's <code>whsec_...</code> secret before trusting it, refuse timestamps more than 5 minutes off, and drop ids you have already handled.</p>
<p>With the SDK (the answer is the typed event):</p>${code(escape, sdkVerify, 'Webhook verification with the SDK')}
<p>With nothing but Node's <code>node:crypto</code> (any Standard Webhooks library works too):</p>${code(escape, plainVerify, 'Webhook verification without the SDK')}`,
    },
  ];
}
