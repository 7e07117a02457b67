// Soak (issue 8 item 4): `npm run bench -- --only soak --soak 600` keeps a steady mixed load
// on the platform for the given number of seconds and samples the resident memory (VmRSS from
// /proc) of every platform process every 10 s. Runs only when --soak is given.
//
// The load (open model, all at once): 40 authenticated reads/s, 5 payment links created/s
// (each causing a payment_link.created webhook delivery to a local receiver), 2 hosted
// checkout payments/s (GET the form + POST the card; each causes payment.succeeded).
//
// Reported per process: RSS at 1 min (after warm-up), at the end, the maximum, and the
// growth end − 1 min; plus request counts and errors, so a leak or a stall shows.

import { createServer } from 'node:http';
import { URLSearchParams } from 'node:url';
import { httpClient, openLoop } from './lib/load.mjs';
import { resultsFile, toStderr, writeReport } from './lib/report.mjs';
import { round } from './lib/stats.mjs';
import { apiCall, modesFor, provisionAccount, rssMiB, sharedTarget } from './lib/platform-target.mjs';

const SAMPLE_MS = 10_000;

export async function runMode(mode, seconds, say) {
  const target = await sharedTarget(mode, say);
  const { key } = await provisionAccount(target, { name: 'Bench soak' });
  let delivered = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.end('ok');
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  await apiCall(target, key, 'POST', '/v1/webhooks', {
    url: `http://127.0.0.1:${receiver.address().port}/soak`,
    enabled_events: ['payment_link.created', 'payment.succeeded'],
  });
  const links = [];
  for (let i = 0; i < 4; i++) {
    links.push(
      (
        await apiCall(target, key, 'POST', '/v1/payment-links', {
          amount: 990,
          currency: 'EUR',
          max_completions: 1_000_000,
        })
      ).id,
    );
  }
  const client = httpClient(target.gateway, 64);
  const auth = { authorization: `Bearer ${key}` };
  const samples = [];
  const sample = () => {
    const pids = target.pids();
    samples.push({
      t: round((Date.now() - started) / 1000, 0),
      rss_mib: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, rssMiB(pid)])),
    });
  };
  const started = Date.now();
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);
  say(`[soak] ${mode}: ${seconds} s of mixed load, RSS every ${SAMPLE_MS / 1000} s`);
  let loads;
  try {
    loads = await Promise.all([
      openLoop({
        rate: 40,
        seconds,
        op: async () => {
          const r = await client.request('GET', '/v1/merchants?limit=10', { headers: auth });
          return { status: r.status, ok: r.status === 200 };
        },
      }),
      openLoop({
        rate: 5,
        seconds,
        op: async () => {
          const r = await client.request('POST', '/v1/payment-links', {
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ amount: 1500, currency: 'EUR' }),
          });
          return { status: r.status, ok: r.status === 200 };
        },
      }),
      openLoop({
        rate: 2,
        seconds,
        op: async (i) => {
          const path = `/pay/${links[i % links.length]}`;
          const page = await client.request('GET', path);
          const token = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
          const paid = await client.request('POST', path, {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              csrf_token: token,
              cardholder_name: 'Soak',
              card_number: '4242424242424242',
              exp_month: '12',
              exp_year: '2099',
              cvc: '123',
            }).toString(),
          });
          return { status: paid.status, ok: paid.status === 200 };
        },
      }),
    ]);
  } finally {
    clearInterval(sampler);
    sample();
    await client.close();
    await new Promise((r) => {
      receiver.closeAllConnections();
      receiver.close(r);
    });
  }
  const names = Object.keys(samples[0].rss_mib);
  const at = (t) => samples.find((s) => s.t >= t) ?? samples[samples.length - 1];
  const last = samples[samples.length - 1];
  const memory = Object.fromEntries(
    names.map((name) => {
      const values = samples.map((s) => s.rss_mib[name]).filter((v) => v !== undefined);
      const warm = at(Math.min(60, seconds / 2)).rss_mib[name];
      return [
        name,
        {
          start_mib: samples[0].rss_mib[name],
          at_1min_mib: warm,
          end_mib: last.rss_mib[name],
          max_mib: Math.max(...values),
          growth_after_1min_mib: round((last.rss_mib[name] ?? 0) - (warm ?? 0), 1),
        },
      ];
    }),
  );
  const [reads, creates, checkouts] = loads;
  const summary = (l) => ({
    sent: l.sent,
    statuses: l.statuses,
    errors: l.errors,
    p50: l.latency_ms.p50,
    p99: l.latency_ms.p99,
  });
  return {
    mode,
    seconds,
    memory,
    load: { reads: summary(reads), link_creations: summary(creates), checkouts: summary(checkouts) },
    webhook_deliveries_received: delivered,
    samples,
  };
}

export const soak = {
  name: 'soak',
  description: 'memory (RSS per process) under a steady mixed load for --soak seconds (only with --soak)',
  async run({ say = toStderr, out = resultsFile('soak'), soak: seconds, ...opts } = {}) {
    if (!seconds)
      return { results: [], skipped: [{ transport: 'all', reason: 'runs only with --soak SECONDS' }] };
    const { modes, skipped } = modesFor(opts);
    const results = [];
    for (const mode of modes) results.push(await runMode(mode, seconds, say));
    return writeReport(out, { benchmark: 'soak', skipped, results });
  },
};
