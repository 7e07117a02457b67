#!/usr/bin/env node
// Commit-to-consumer latency of an event through the transactional outbox and the bus.
//
// For each transport it wires the real platform pieces the services use:
//   Database (producer schema: outbox + `things`) --Tx.publish--> outbox row
//   OutboxRelay (wakes on commit, polls as fallback) --bus.publish--> KafkaBus | EmbeddedBus
//   InboxConsumer (its own Database/schema: inbox row + handler in one transaction)
// and then, at a steady rate (open model: events fire on a timer whatever happened to the
// previous ones, so a slow phase cannot hide behind a stalled generator), runs transactions
// that insert a row and publish an event. Latency = time the consumer handler runs for the
// event's id - time the producing transaction's commit returned. Both instants are taken
// with process.hrtime.bigint() in this one process, so there is a single clock.
//
//   node bench/outbox-latency.mjs [--transport kafka|embedded|all] [--rate 200] [--seconds 10]
//        [--warmup 1] [--drain 30] [--partitions 4] [--relay-poll-ms 1000] [--out FILE]
//
// kafka needs DATABASE_URL and KAFKA_BROKERS (eval "$(bash infra/infra-up.sh)"); embedded needs
// nothing. The wiring of each is lib/outbox-rig.mjs.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { runIfMain } from './lib/module.mjs';
import { resultsFile, selectRuns, toStderr, writeReport } from './lib/report.mjs';
import { round, summarize } from './lib/stats.mjs';
import {
  KEYS,
  TOPIC,
  benchLogger,
  instrumentBus,
  ms,
  now,
  platform,
  setUpEmbedded,
  setUpKafka,
  sleep,
  transportAvailability,
} from './lib/outbox-rig.mjs';
import { resultTable, timeline } from './lib/outbox-results.mjs';

const { InboxConsumer, OutboxRelay } = platform;

export const RESULTS_FILE = resultsFile('outbox-latency');
const LOOP_RESOLUTION_MS = 5;

export const DEFAULTS = {
  rate: 200,
  seconds: 10,
  warmup: 1,
  drain: 30,
  partitions: 4,
  instances: 1,
  relayPollMs: undefined, // the relay's own default
};

/** Runs the benchmark for one transport and returns its result object. */
export async function runTransport(transport, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  const logger = opts.logger ?? benchLogger();
  const say = opts.say ?? toStderr;
  const setUpStarted = now();
  const env = transport === 'kafka' ? await setUpKafka(opts, logger) : await setUpEmbedded(opts, logger);
  const { producerDbs, consumerDb, schema } = env;
  const producerDb = producerDbs[0];

  const records = new Map();
  const primes = new Set();
  let strays = 0;
  let busPublishes = 0;
  let maxBatch = 0;
  const probe = {
    publishStart(ids, t) {
      busPublishes++;
      maxBatch = Math.max(maxBatch, ids.length);
      for (const id of ids) {
        const r = records.get(id);
        if (r && !r.pickNs) r.pickNs = t;
      }
    },
    publishAck(ids, t) {
      for (const id of ids) {
        const r = records.get(id);
        if (r && !r.ackNs) r.ackNs = t;
      }
    },
    delivered(id, t) {
      const r = records.get(id);
      if (!r) return;
      r.deliveries++;
      if (!r.deliveredNs) r.deliveredNs = t;
    },
    consumerCommitted(id, t) {
      const r = records.get(id);
      if (r && !r.doneNs) r.doneNs = t;
    },
  };
  const relayBus = instrumentBus(env.relayBus, probe);
  const consumerBus = env.shared ? relayBus : instrumentBus(env.consumerBus, probe);

  // One relay per instance, as each service instance runs one; the advisory lock lets one
  // of them publish (kafka), the others wait for the lock.
  const relays = producerDbs.map(
    (db) =>
      new OutboxRelay(db, relayBus, logger, {
        ...env.relayOptions,
        ...(opts.relayPollMs !== undefined ? { pollMs: opts.relayPollMs } : {}),
      }),
  );
  const consumer = new InboxConsumer(consumerDb, consumerBus, logger);
  const groupId = `bench-${env.suffix}-consumer`;

  let producerErrors = 0;
  const publishEvent = async (id, seq, tx) => {
    const account = `acct_bench_${seq % KEYS}`;
    await tx.query(`insert into ${schema}.things (id) values ($1)`, [id]);
    await tx.publish({
      topic: TOPIC,
      key: account,
      id,
      payload: { id, type: 'bench.thing.created', account, livemode: false, seq },
    });
  };

  let result;
  try {
    await consumer.subscribe(groupId, [TOPIC], async (message) => {
      const t = now();
      const r = records.get(message.id);
      if (r) r.handled.push(t);
      else if (message.id.startsWith('prime_')) primes.add(message.id);
      else strays++;
    });
    for (const relay of relays) relay.start();

    // Prime until an event makes the whole trip (Kafka group join, JIT, pools), bounded.
    const primeDeadline = now() + 60_000_000_000n;
    for (let n = 0; !primes.size; n++) {
      if (now() > primeDeadline) throw new Error(`${transport}: no event reached the consumer within 60 s`);
      await producerDb.transaction((tx) => publishEvent(`prime_${n}`, n, tx));
      const until = now() + 500_000_000n;
      while (!primes.size && now() < until) await sleep(10);
    }
    const setUpMs = ms(setUpStarted, now());

    // Open-model load: event i is due at t0 + i / rate and is fired when due, without
    // waiting for earlier ones. Those due during the warm-up are sent but not measured.
    const intervalNs = BigInt(Math.round(1e9 / opts.rate));
    const total = Math.round(opts.rate * (opts.warmup + opts.seconds));
    const warmupCount = Math.round(opts.rate * opts.warmup);
    const inflight = [];
    const schedulerLag = [];
    const fire = async (seq, dueNs) => {
      const id = `evt_bench_${env.suffix}_${seq}`;
      const r = {
        seq,
        dueNs,
        commitNs: 0n,
        pickNs: 0n,
        ackNs: 0n,
        deliveredNs: 0n,
        doneNs: 0n,
        handled: [],
        deliveries: 0,
      };
      records.set(id, r);
      try {
        await producerDbs[seq % producerDbs.length].transaction((tx) => publishEvent(id, seq, tx));
        r.commitNs = now();
      } catch (error) {
        r.error = String(error?.message ?? error);
        producerErrors++;
      }
    };
    say(
      `[outbox-latency] ${transport}: ${opts.rate}/s for ${opts.warmup} s warm-up + ${opts.seconds} s measured`,
    );
    const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    loopDelay.enable();
    const cpuStart = process.cpuUsage();
    const machineStart = cpuTimes();
    const t0 = now() + 5_000_000n;
    await new Promise((done) => {
      let fired = 0;
      const tick = () => {
        const t = now();
        while (fired < total) {
          const due = t0 + BigInt(fired) * intervalNs;
          if (due > t) break;
          if (fired >= warmupCount) schedulerLag.push(ms(due, t));
          inflight.push(fire(fired, due));
          fired++;
        }
        if (fired >= total) return done();
        const nextDue = t0 + BigInt(fired) * intervalNs;
        setTimeout(tick, Math.max(0, Number(nextDue - now()) / 1e6));
      };
      tick();
    });
    const loadEndNs = now();
    const cpu = process.cpuUsage(cpuStart);
    const load = machineLoad(machineStart, cpuTimes());
    if (load.cpu_by_group?.others > 0.2) {
      say(
        `[outbox-latency] ${transport}: other processes used ${Math.round(load.cpu_by_group.others * 100)}% ` +
          'of the machine during the run; the figures are disturbed by them',
      );
    }
    loopDelay.disable();
    await Promise.all(inflight);

    // Drain: wait (bounded) until every committed event was handled, then a short grace
    // period in which late duplicates would still be counted.
    const committed = [...records.values()].filter((r) => r.commitNs);
    const drainDeadline = now() + BigInt(Math.round(opts.drain * 1e9));
    while (now() < drainDeadline && committed.some((r) => !r.handled.length)) await sleep(20);
    const drainedNs = now();
    await sleep(250);

    const measured = committed.filter((r) => r.seq >= warmupCount);
    const handled = measured.filter((r) => r.handled.length);
    const firstDue = t0 + BigInt(warmupCount) * intervalNs;
    const lastCommit = measured.reduce((m, r) => (r.commitNs > m ? r.commitNs : m), 0n);
    const lastHandled = handled.reduce((m, r) => (r.handled[0] > m ? r.handled[0] : m), 0n);
    const stage = (list, from, to) =>
      summarize(list.filter((r) => r[from] && r[to]).map((r) => ms(r[from], r[to])));
    const allCommitted = committed.length;
    result = {
      transport,
      ...env.info,
      params: {
        rate_per_s: opts.rate,
        seconds: opts.seconds,
        warmup_s: opts.warmup,
        drain_timeout_s: opts.drain,
        relay_poll_ms: opts.relayPollMs ?? 'default (1000)',
        instances: opts.instances,
        consumer_group: groupId,
      },
      setup_ms: round(setUpMs),
      events: {
        scheduled: total,
        committed: allCommitted,
        measured: measured.length,
        handled: handled.length,
        lost: committed.filter((r) => !r.handled.length).length,
        duplicates: committed.reduce((n, r) => n + Math.max(0, r.handled.length - 1), 0),
        redeliveries: committed.reduce((n, r) => n + Math.max(0, r.deliveries - 1), 0),
        producer_errors: producerErrors,
        strays,
      },
      achieved_rate_per_s: {
        committed: round(measured.length / (ms(firstDue, lastCommit) / 1000), 1),
        consumed: round(handled.length / (ms(firstDue, lastHandled) / 1000), 1),
      },
      // The headline: producer commit returned -> consumer handler entered.
      latency_ms: summarize(handled.map((r) => ms(r.commitNs, r.handled[0]))),
      stages_ms: {
        commit_to_relay_send: stage(measured, 'commitNs', 'pickNs'),
        relay_send_to_bus_ack: stage(measured, 'pickNs', 'ackNs'),
        // The bus handed the message to the consumer (before the inbox transaction began).
        relay_send_to_delivery: stage(measured, 'pickNs', 'deliveredNs'),
        delivery_to_handler: summarize(
          handled.filter((r) => r.deliveredNs).map((r) => ms(r.deliveredNs, r.handled[0])),
        ),
        relay_send_to_handler: summarize(
          handled.filter((r) => r.pickNs).map((r) => ms(r.pickNs, r.handled[0])),
        ),
        commit_to_consumer_commit: stage(measured, 'commitNs', 'doneNs'),
        due_to_commit: stage(measured, 'dueNs', 'commitNs'),
        scheduler_lag: summarize(schedulerLag),
      },
      relay: {
        bus_publish_calls: busPublishes,
        mean_batch: round(allCommitted / Math.max(1, busPublishes), 2),
        max_batch: maxBatch,
      },
      drain_ms: round(ms(loadEndNs, drainedNs)),
      // This process during the load phase: CPU (1.0 = one core busy) and event-loop delay,
      // which in embedded mode includes PGlite's query execution (WASM on the main thread).
      process: {
        cpu_cores_busy: round((cpu.user + cpu.system) / 1000 / ms(t0, loadEndNs), 2),
        // Beyond the sampling interval: how long timers were held up by synchronous work.
        event_loop_delay_ms: {
          p50: round(Math.max(0, loopDelay.percentile(50) / 1e6 - LOOP_RESOLUTION_MS)),
          p99: round(Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS)),
          max: round(Math.max(0, loopDelay.max / 1e6 - LOOP_RESOLUTION_MS)),
        },
      },
      // The whole machine during the load phase (other processes included).
      machine_load: load,
      ...(producerDbs.length > 1
        ? {
            // Which instance's transaction produced the event: the relay that holds the lock
            // is woken by its own instance's commits only.
            by_instance: producerDbs.map((_, i) => ({
              instance: i,
              ...summarize(
                handled
                  .filter((r) => r.seq % producerDbs.length === i)
                  .map((r) => ms(r.commitNs, r.handled[0])),
              ),
            })),
          }
        : {}),
      // Per second of the measured phase (by due time): how latency evolved.
      timeline: timeline(handled, firstDue),
    };
  } finally {
    for (const relay of relays)
      await relay.stop().catch((e) => logger.error({ err: e }, 'relay stop failed'));
    await env.consumerBus.close().catch((e) => logger.error({ err: e }, 'bus close failed'));
    if (!env.shared) await env.relayBus.close().catch((e) => logger.error({ err: e }, 'bus close failed'));
    await env.cleanUp().catch((e) => logger.error({ err: e }, 'clean-up failed'));
    await consumerDb.close().catch(() => undefined);
    for (const db of producerDbs) await db.close().catch(() => undefined);
    if (env.embedded) await env.embedded.close().catch(() => undefined);
  }
  return result;
}

/** The benchmark as a module for run.mjs: runs each requested transport and writes its file. */
export const outboxLatency = {
  name: 'outbox-latency',
  description: 'commit-to-consumer latency of an event through the outbox relay and the bus',
  async run({ transports, quick = false, say, out = RESULTS_FILE, ...overrides } = {}) {
    const availability = transportAvailability();
    const wanted = transports ?? Object.keys(availability).filter((t) => availability[t].ok);
    const opts = { ...(quick ? { seconds: 3, drain: 15 } : {}), ...overrides, say };
    const { run: chosen, skipped } = selectRuns(['kafka', 'embedded'], wanted, availability);
    const results = [];
    for (const transport of chosen) {
      if (transport === 'embedded' && (opts.instances ?? 1) > 1) {
        skipped.push({
          transport,
          reason: '--instances > 1 applies to kafka only (embedded is one process)',
        });
        continue;
      }
      results.push(await runTransport(transport, opts));
    }
    return writeReport(out, {
      benchmark: 'outbox-latency',
      description: outboxLatency.description,
      note: 'load generator, relay and consumer run in this one Node process; PostgreSQL and Kafka share the same cores',
      skipped,
      results,
    });
  },
};

async function main() {
  const flags = parseArgs(process.argv.slice(2));
  if (flags.help) {
    process.stdout.write(
      'usage: node bench/outbox-latency.mjs [--transport kafka|embedded|all] [--rate N] [--seconds N]\n' +
        '         [--warmup N] [--drain N] [--partitions N] [--instances N] [--relay-poll-ms N]\n' +
        '         [--quick] [--out FILE]\n',
    );
    return;
  }
  const transport = flags.transport ?? 'all';
  if (!['kafka', 'embedded', 'all'].includes(transport))
    throw new Error('--transport must be kafka|embedded|all');
  const opts = {
    rate: numberFlag(flags, 'rate', DEFAULTS.rate, { min: 1, max: 100_000 }),
    seconds: numberFlag(flags, 'seconds', flags.quick ? 3 : DEFAULTS.seconds, { min: 0.1, max: 3600 }),
    warmup: numberFlag(flags, 'warmup', DEFAULTS.warmup, { min: 0, max: 600 }),
    drain: numberFlag(flags, 'drain', flags.quick ? 15 : DEFAULTS.drain, { min: 1, max: 600 }),
    partitions: numberFlag(flags, 'partitions', DEFAULTS.partitions, { min: 1, max: 1024 }),
    instances: numberFlag(flags, 'instances', DEFAULTS.instances, { min: 1, max: 8 }),
    relayPollMs: numberFlag(flags, 'relay-poll-ms', undefined, { min: 1, max: 600_000 }),
  };
  const availability = transportAvailability();
  let transports;
  if (transport === 'all') {
    transports = Object.keys(availability).filter((t) => availability[t].ok);
    if (!availability.kafka.ok)
      process.stderr.write(`[outbox-latency] skipping kafka: ${availability.kafka.reason}\n`);
  } else {
    transports = [transport];
  }
  // Bounded: set-up, load, drain and tear-down per transport, plus slack.
  const budgetMs = transports.length * (opts.warmup + opts.seconds + opts.drain + 150) * 1000;
  setTimeout(() => {
    process.stderr.write(`[outbox-latency] did not finish within ${budgetMs / 1000} s; giving up\n`);
    process.exit(3);
  }, budgetMs).unref();
  const out = flags.out ? resolve(String(flags.out)) : RESULTS_FILE;
  const report = await outboxLatency.run({ transports, out, ...opts });
  process.stdout.write(`\n${resultTable(report.results)}\n\nresults: ${out}\n`);
  const lost = report.results.reduce((n, r) => n + r.events.lost, 0);
  if (lost) {
    process.stderr.write(`[outbox-latency] LOST ${lost} messages\n`);
    process.exitCode = 1;
  }
}

runIfMain(import.meta.url, 'outbox-latency', main);
