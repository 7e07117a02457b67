// Stripe's official mock server for the checkout-through-Stripe row (issue 13): one instance
// per bench run, built by infra/stripe-mock.sh into the tools cache (a Go module, pinned) and
// started with the fixtures that answer a confirmed PaymentIntent `succeeded`
// (infra/stripe-mock-fixtures.mjs). The platforms of the run point STRIPE_API_BASE at it, so the
// Stripe connector's real requests (PaymentMethod, then a confirmed PaymentIntent) are sent and
// validated against Stripe's published API; the figure is our side's cost, not Stripe's latency.

import { execFileSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let started;

function install() {
  const out = execFileSync('bash', [join(ROOT, 'infra', 'stripe-mock.sh'), 'install'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const value = (name) => {
    const line = out.split('\n').find((l) => l.startsWith(`${name}=`));
    if (!line) throw new Error(`infra/stripe-mock.sh printed no ${name}`);
    return line.slice(name.length + 1);
  };
  return { bin: value('STRIPE_MOCK_BIN'), fixtures: value('STRIPE_MOCK_FIXTURES') };
}

/** The run's stripe-mock (started on first use): `{ url, pid, stop() }`. */
export function sharedStripeMock() {
  started ??= new Promise((resolve, reject) => {
    const { bin, fixtures } = install();
    const child = spawn(
      bin,
      [
        '-http-addr',
        '127.0.0.1:',
        '-https-addr',
        '127.0.0.1:',
        '-fixtures',
        join(fixtures, 'succeeded.json'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // A bench script that exits without stopStripeMock() (a standalone benchmark ends with
    // process.exit) must not leave it running: the signal is sent synchronously on exit.
    const killOnExit = () => child.kill('SIGTERM');
    process.once('exit', killOnExit);
    child.once('exit', () => process.removeListener('exit', killOnExit));
    let output = '';
    const timer = setTimeout(() => reject(new Error(`stripe-mock did not start:\n${output}`)), 30_000);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /Listening for HTTP at address: (\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      // Keep draining its request log so the pipes never fill.
      child.stdout.removeListener('data', onData);
      child.stderr.removeListener('data', onData);
      child.stdout.resume();
      child.stderr.resume();
      resolve({
        url: `http://${match[1]}`,
        pid: child.pid,
        stop: () =>
          child.exitCode !== null
            ? Promise.resolve()
            : new Promise((done) => {
                child.once('exit', done);
                child.kill('SIGTERM');
              }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stripe-mock exited (${code}):\n${output}`));
    });
  });
  return started;
}

export async function stopStripeMock() {
  if (!started) return;
  const mock = await started.catch(() => undefined);
  started = undefined;
  await mock?.stop();
}
