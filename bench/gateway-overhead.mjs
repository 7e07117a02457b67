#!/usr/bin/env node
// The gateway's added latency: the same authenticated GET (`GET /v1/merchants?limit=1`, a key
// of an account with the payments grouping) sent through the gateway and straight to the
// payments service, at a fixed concurrency (closed model: autocannon, N connections, each
// sending its next request when the previous one is answered). Through the gateway a request
// pays: key authentication (in-memory cache, warm), the per-key rate limit (a Redis script
// round trip when distributed, in memory when embedded), the grouping check, signing the
// internal context, and forwarding (HTTP through an undici pool when distributed, in-process
// injection when embedded). Straight to the service, the bench signs the same internal
// context itself (signContext with the INTERNAL_SIGNING_SECRET of the processes it started),
// once per run: a signature stays valid for 60 s.
//
//   node bench/gateway-overhead.mjs [--mode distributed|embedded|all] [--seconds 10]
//        [--warmup 2] [--connections 16] [--out FILE]
//
// The platform is lib/platform-target.mjs's (distributed: the four apps as processes on a
// fresh database of the running infrastructure, eval "$(bash infra/infra-up.sh)", dropped at
// the end; embedded: bench/lib/embedded-target.mjs in a process of its own): started here
// when run alone, the one shared per mode when run by run.mjs. Either way the load generator
// is this process, on the same cores.
//
// The account gets `rate_limit_per_second` = 100,000 through the admin API so the limiter
// is exercised (every request takes a token) but never refuses.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { runIfMain } from './lib/module.mjs';
import { provisionAccount, startTarget, targetAvailability } from './lib/platform-target.mjs';
import { resultsFile, selectRuns, toStderr, writeReport } from './lib/report.mjs';
import { markdownTable, round, summarize } from './lib/stats.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { signContext } = require('@paygrid/platform');

export const RESULTS_FILE = resultsFile('gateway-overhead');
const PATH = '/v1/merchants?limit=1';

export const DEFAULTS = { seconds: 10, warmup: 2, connections: 16 };

/** CPU ticks (utime + stime, 1/100 s on Linux) of the given processes; 0 for any that is gone. */
function ticksOf(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // not Linux, or the process ended
    }
  }
  return ticks;
}

/** Headers for the service, as the gateway would sign them for this key. */
function directHeaders(target, { account, keyId }) {
  const requestId = `req_bench${randomBytes(8).toString('hex')}`;
  const context = {
    kind: 'api',
    account: account.id,
    livemode: false,
    key_id: keyId,
    scopes: ['merchants:read'],
    groupings: account.groupings,
    request_id: requestId,
    issued_at: Date.now(),
  };
  return { ...signContext(target.internalSecret, context, 'GET', PATH), 'request-id': requestId };
}

/** One autocannon run; latencies recorded exactly (autocannon's histogram has 1 ms buckets). */
async function load(url, headers, { seconds, connections }) {
  const samples = [];
  const statuses = {};
  const instance = autocannon({ url, headers, connections, duration: seconds, pipelining: 1 });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    if (statusCode === 200) samples.push(responseTime);
  });
  const result = await instance;
  return {
    latency_ms: summarize(samples),
    requests_per_s: round(samples.length / seconds, 1),
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

async function check(url, headers) {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body}`);
  return response;
}

export async function runMode(mode, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  const say = opts.say ?? toStderr;
  // A target provided by the caller (run.mjs shares one platform per mode) is not stopped here.
  const target = opts.targetFor ? await opts.targetFor(mode) : await startTarget(mode, say);
  try {
    // The platform's processes (embedded: the one process); the gateway's when it has its own.
    const pids = target.pids();
    const platformPids = Object.values(pids);
    const gatewayPid = pids.gateway;
    // The limit is the admin API's maximum, far above what one machine sends: never refuses.
    const credentials = await provisionAccount(target);
    const viaGateway = {
      url: `${target.gateway}${PATH}`,
      headers: { authorization: `Bearer ${credentials.key}` },
    };
    const gatewayResponse = await check(viaGateway.url, viaGateway.headers);
    const limitPolicy = gatewayResponse.headers.get('ratelimit-policy');
    const direct = () => ({ url: `${target.payments}${PATH}`, headers: directHeaders(target, credentials) });
    await check(direct().url, direct().headers);

    const results = {};
    // Warm-up of both paths (JIT, pools, caches), then the measured runs back to back.
    for (const path of [viaGateway, direct()]) {
      if (opts.warmup > 0) await load(path.url, path.headers, { ...opts, seconds: opts.warmup });
    }
    for (const [name, make] of [
      ['gateway', () => viaGateway],
      ['direct', direct],
    ]) {
      const path = make();
      say(`[gateway-overhead] ${mode}: ${name}, ${opts.connections} connections, ${opts.seconds} s`);
      const before = cpuTimes();
      const targetTicks = ticksOf(platformPids);
      const gatewayTicks = gatewayPid ? ticksOf([gatewayPid]) : 0;
      const measured = await load(path.url, path.headers, opts);
      const gatewayCores = gatewayPid ? (ticksOf([gatewayPid]) - gatewayTicks) / 100 / opts.seconds : 0;
      results[name] = {
        ...measured,
        // Distributed only: the gateway process alone, and its CPU time per request.
        ...(gatewayPid
          ? {
              gateway_cpu_cores: round(gatewayCores, 2),
              gateway_cpu_us_per_request: round((gatewayCores * 1e6) / measured.requests_per_s, 0),
            }
          : {}),
        // CPU of the platform's own processes (gateway and services; embedded: the one
        // process), in cores; the machine's other groups are in machine_load.
        platform_cpu_cores: round((ticksOf(platformPids) - targetTicks) / 100 / opts.seconds, 2),
        machine_load: machineLoad(before, cpuTimes()),
      };
    }
    const g = results.gateway.latency_ms;
    const d = results.direct.latency_ms;
    return {
      mode,
      params: {
        path: `GET ${PATH}`,
        connections: opts.connections,
        seconds: opts.seconds,
        warmup: opts.warmup,
      },
      rate_limit_policy_seen: limitPolicy,
      gateway: results.gateway,
      direct: results.direct,
      added_ms: { p50: round(g.p50 - d.p50, 3), p90: round(g.p90 - d.p90, 3), p99: round(g.p99 - d.p99, 3) },
      throughput_ratio: round(results.gateway.requests_per_s / results.direct.requests_per_s, 3),
    };
  } finally {
    if (!opts.targetFor) await target.stop();
  }
}

export function resultTable(results) {
  return markdownTable(
    [
      'mode',
      'path',
      'req/s',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'max ms',
      'added p50 / p99 ms',
      'throughput ratio',
    ],
    results.flatMap((r) =>
      ['gateway', 'direct'].map((path) => [
        r.mode,
        path === 'gateway' ? 'through the gateway' : 'straight to payments',
        r[path].requests_per_s,
        r[path].latency_ms.p50,
        r[path].latency_ms.p90,
        r[path].latency_ms.p99,
        r[path].latency_ms.max,
        path === 'gateway' ? `${r.added_ms.p50} / ${r.added_ms.p99}` : '',
        path === 'gateway' ? r.throughput_ratio : '',
      ]),
    ),
  );
}

/** The benchmark as a module for run.mjs: runs each requested mode and writes its file. */
export const gatewayOverhead = {
  name: 'gateway-overhead',
  description:
    "the gateway's added latency: an authenticated GET through the gateway vs straight to the service",
  async run({ modes, quick = false, say, out = RESULTS_FILE, ...overrides } = {}) {
    const availability = targetAvailability();
    const wanted = modes ?? Object.keys(availability).filter((m) => availability[m].ok);
    const opts = { ...(quick ? { seconds: 3, warmup: 1 } : {}), ...overrides, say };
    const { run: chosen, skipped } = selectRuns(['distributed', 'embedded'], wanted, availability);
    const results = [];
    for (const mode of chosen) results.push(await runMode(mode, opts));
    return writeReport(out, {
      benchmark: 'gateway-overhead',
      description: gatewayOverhead.description,
      note: 'autocannon runs in this process; the apps, PostgreSQL and Redis share the same cores',
      skipped,
      results,
    });
  },
};

async function main() {
  const flags = parseArgs(process.argv.slice(2));
  if (flags.help) {
    process.stdout.write(
      'usage: node bench/gateway-overhead.mjs [--mode distributed|embedded|all] [--seconds N] [--warmup N]\n' +
        '         [--connections N] [--quick] [--out FILE]\n',
    );
    return;
  }
  const mode = flags.mode ?? 'all';
  if (!['distributed', 'embedded', 'all'].includes(mode))
    throw new Error('--mode must be distributed|embedded|all');
  const quick = Boolean(flags.quick);
  const opts = {
    seconds: numberFlag(flags, 'seconds', quick ? 3 : DEFAULTS.seconds, { min: 1, max: 600 }),
    warmup: numberFlag(flags, 'warmup', quick ? 1 : DEFAULTS.warmup, { min: 0, max: 600 }),
    connections: numberFlag(flags, 'connections', DEFAULTS.connections, { min: 1, max: 1024 }),
  };
  const availability = targetAvailability();
  let modes;
  if (mode === 'all') {
    modes = Object.keys(availability).filter((m) => availability[m].ok);
    if (!availability.distributed.ok)
      process.stderr.write(`[gateway-overhead] skipping distributed: ${availability.distributed.reason}\n`);
  } else {
    modes = [mode];
  }
  // Bounded: start-up, warm-up and both measured runs per mode, plus slack.
  const budgetMs = modes.length * (2 * (opts.warmup + opts.seconds) + 240) * 1000;
  setTimeout(() => {
    process.stderr.write(`[gateway-overhead] did not finish within ${budgetMs / 1000} s; giving up\n`);
    process.exit(3);
  }, budgetMs).unref();
  const out = flags.out ? resolve(String(flags.out)) : RESULTS_FILE;
  const report = await gatewayOverhead.run({ modes, out, ...opts });
  process.stdout.write(`\n${resultTable(report.results)}\n\nresults: ${out}\n`);
}

runIfMain(import.meta.url, 'gateway-overhead', main);
