// `npm start -w @paygrid/example-checkout`: the shop on PORT (default 4242), with the key and
// secret from the environment (README.md).

import { Paygrid } from '@paygrid/sdk';
import { startShop } from './shop';

const { PAYGRID_KEY, PAYGRID_URL, PAYGRID_WEBHOOK_SECRET, PORT } = process.env;
if (!PAYGRID_KEY || !PAYGRID_WEBHOOK_SECRET) {
  process.stderr.write('Set PAYGRID_KEY and PAYGRID_WEBHOOK_SECRET (the secret paygrid listen prints).\n');
  process.exit(2);
}
void startShop({
  paygrid: new Paygrid(PAYGRID_KEY, { baseUrl: PAYGRID_URL ?? 'http://localhost:3000' }),
  webhookSecret: PAYGRID_WEBHOOK_SECRET,
  port: Number(PORT ?? 4242),
}).then((shop) => process.stderr.write(`shop on ${shop.url}: POST /checkout, webhooks on /hooks\n`));
