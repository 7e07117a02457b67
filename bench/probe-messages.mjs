// What one operation costs each process and how many messages it sends, on the distributed
// platform (bench/README.md finding 52): per-process CPU per operation, Kafka requests by type
// per operation (counted by tshark on the broker's port, when tshark is installed) and
// PostgreSQL commits and rows per operation (pg_stat_database).
//
//   node bench/probe-messages.mjs links [seconds] [rate]   POST /v1/payment-links at a fixed rate
//                                                          (open model), one webhook endpoint
//   node bench/probe-messages.mjs checkout [seconds]       the hosted checkout, 16 connections
//   node bench/probe-messages.mjs list [seconds]           GET /v1/transactions (page of 100, three
//                                                          filters, 20,000 seeded rows), 16 connections
//   node bench/probe-messages.mjs read [seconds]           GET /v1/merchants, 16 connections
//
// Needs DATABASE_URL, KAFKA_BROKERS and REDIS_URL (eval "$(bash infra/infra-up.sh)") and a build.
// Prints one JSON object. Not part of `npm run bench`: a probe for comparing builds, run in turns.

import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { checkoutOnce, seedTransactions } from './api.mjs';
import { closedLoop, httpClient, openLoop } from './lib/load.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { apiCall, provisionAccount, sharedTarget, stopSharedTargets } from './lib/platform-target.mjs';

const [what = 'links', secondsArg = '10', rateArg = '200'] = process.argv.slice(2);
const CLOSED = ['checkout', 'list', 'read'];
if (!['links', ...CLOSED].includes(what)) {
  console.error('usage: node bench/probe-messages.mjs links|checkout|list|read [seconds] [rate]');
  process.exit(2);
}
const seconds = Number(secondsArg);
const rate = Number(rateArg);
const say = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const KAFKA_API = {
  0: 'Produce',
  1: 'Fetch',
  3: 'Metadata',
  8: 'OffsetCommit',
  9: 'OffsetFetch',
  10: 'FindCoordinator',
  11: 'JoinGroup',
  12: 'Heartbeat',
  14: 'SyncGroup',
};

const target = await sharedTarget('distributed', say);
try {
  const { account, key } = await provisionAccount(target, {
    name: 'Probe',
    groupings: ['payments', 'invoicing'],
  });
  const merchant = await apiCall(target, key, 'POST', '/v1/merchants', {
    business_name: 'Probe Shop',
    email: 'ops@probe.example',
    country: 'GB',
    default_currency: 'EUR',
    business_type: 'company',
  });
  // The receiver of the webhook endpoint: every payment link and payment is delivered.
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  await apiCall(target, key, 'POST', '/v1/webhooks', {
    url: `http://127.0.0.1:${receiver.address().port}/probe`,
    enabled_events: ['payment_link.created', 'payment.succeeded'],
  });
  const links = [];
  for (let i = 0; i < 16; i++) {
    const link = await apiCall(target, key, 'POST', '/v1/payment-links', {
      merchant: merchant.id,
      amount: 2500,
      currency: 'EUR',
      description: `Probe checkout ${i}`,
      max_completions: 1_000_000,
    });
    links.push(link.id);
  }
  const client = httpClient(target.gateway, 64);
  const createLink = async () => {
    const r = await client.request('POST', '/v1/payment-links', {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        merchant: merchant.id,
        amount: 100,
        currency: 'EUR',
        description: 'Probe link',
      }),
    });
    return { status: r.status, ok: r.status === 200 };
  };
  if (what === 'list') await seedTransactions(target, account.id, 20_000);
  const get = (path, expect) => async () => {
    const r = await client.request('GET', path, { headers: { authorization: `Bearer ${key}` } });
    return { status: r.status, ok: r.status === 200 && r.text.includes(expect) };
  };
  const closedOp = {
    checkout: (w) => checkoutOnce(client, links[w]),
    list: get('/v1/transactions?limit=100&status=succeeded&currency=EUR&type=payment', '"has_more":true'),
    read: get('/v1/merchants', '"object":"list"'),
  }[what];
  const load = (forSeconds) =>
    closedOp
      ? closedLoop({ connections: 16, seconds: forSeconds, op: closedOp })
      : openLoop({ rate, seconds: forSeconds, op: createLink });
  // Warm-up (the processes just started: their JIT is cold), then a pause.
  await load(3);
  await sleep(2_000);
  const stats = async () => {
    const [row] = await target.sql(
      `select sum(xact_commit)::bigint as commits, sum(tup_inserted)::bigint as inserted,
         sum(tup_updated)::bigint as updated from pg_stat_database where datname = current_database()`,
    );
    return [Number(row.commits), Number(row.inserted), Number(row.updated)];
  };
  const tshark = spawnSync('tshark', ['--version']).status === 0;
  const capture = tshark
    ? spawn(
        'tshark',
        [
          '-i',
          'lo',
          '-f',
          'tcp dst port 9092',
          '-Y',
          'kafka.request_key',
          '-T',
          'fields',
          '-e',
          'kafka.request_key',
          '-l',
        ],
        {
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      )
    : undefined;
  let captured = '';
  capture?.stdout.on('data', (chunk) => (captured += chunk));
  if (capture) await sleep(2_500);
  // PROBE_STATEMENTS=1: per-statement calls and time per operation from pg_stat_statements
  // (the server must preload it; the probe creates the extension in the run's database).
  const statements = process.env.PROBE_STATEMENTS === '1';
  if (statements) {
    await target.sql('create extension if not exists pg_stat_statements');
    await target.sql('select pg_stat_statements_reset()');
  }
  const before = { cpu: cpuTimes(), pg: await stats() };
  const result = await load(seconds);
  const after = { cpu: cpuTimes(), pg: await stats() };
  const statementRows = statements
    ? await target.sql(
        `select s.calls, s.total_exec_time + s.total_plan_time as ms, s.plans, r.rolname,
           left(regexp_replace(s.query, '\\s+', ' ', 'g'), 160) as query
         from pg_stat_statements s join pg_roles r on r.oid = s.userid
         join pg_database d on d.oid = s.dbid and d.datname = current_database()
         order by s.calls desc limit 40`,
      )
    : [];
  await sleep(1_500);
  capture?.kill('SIGINT');
  await sleep(500);
  const ops = closedOp ? result.ops_total : rate * seconds;
  const machine = machineLoad(before.cpu, after.cpu);
  const perOp = (value) => Math.round((value / ops) * 100) / 100;
  const kafka = {};
  for (const line of captured.trim().split('\n').filter(Boolean)) {
    for (const code of line.split(','))
      kafka[KAFKA_API[code] ?? code] = (kafka[KAFKA_API[code] ?? code] ?? 0) + 1;
  }
  console.log(
    JSON.stringify(
      {
        what,
        seconds,
        ...(closedOp
          ? { ops_per_s: result.ops_per_s, statuses: result.statuses, latency_ms: result.latency_ms }
          : { rate }),
        operations: ops,
        webhooks_received: received,
        cpu_busy: machine.cpu_busy,
        cpu_ms_per_op: Object.fromEntries(
          Object.entries(machine.cpu_ms_by_process).map(([name, ms]) => [name, perOp(ms)]),
        ),
        cpu_ms_per_op_by_group: Object.fromEntries(
          Object.entries(machine.cpu_by_group).map(([group, share]) => [
            group,
            perOp(share * machine.cores * seconds * 1000),
          ]),
        ),
        kafka_requests_per_op: tshark
          ? Object.fromEntries(Object.entries(kafka).map(([k, v]) => [k, perOp(v)]))
          : 'tshark not installed',
        ...(statements
          ? {
              statements_per_op: statementRows.map(
                (r) =>
                  `${perOp(Number(r.calls))} calls ${perOp(Number(r.ms) * 1000)} µs plans ${perOp(Number(r.plans))} ${r.rolname}: ${r.query}`,
              ),
            }
          : {}),
        postgres_per_op: {
          commits: perOp(after.pg[0] - before.pg[0]),
          rows_inserted: perOp(after.pg[1] - before.pg[1]),
          rows_updated: perOp(after.pg[2] - before.pg[2]),
        },
      },
      null,
      1,
    ),
  );
  await client.close();
  receiver.close();
} finally {
  await stopSharedTargets();
}
process.exit(0);
