// ---------------------------------------------------------------------------------------
// PAYGRID_PRISM=1: every `api()` call goes through Prism (@stoplight/prism-cli) in proxy mode
// with --errors, in front of the platform, with the OpenAPI document the platform serves.
// Prism checks each response against the document; a response that breaks it fails the
// calling test (an exception naming the violations). Requests that break the document on
// purpose (the suites' bad-input checks) are answered by Prism itself, without reaching the
// server: those are sent again straight to the server, so the suites' own assertions still
// hold. Prism must really be in the path: checked at start (its "no path matched" problem
// document) and on every proxied answer (the CORS headers Prism adds and the server never
// sends); a run that validated nothing fails when the platform stops.
// ---------------------------------------------------------------------------------------

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, request, ROOT } from './harness';
import type { Platform } from './platform-types';

const PRISM_ERROR = 'https://stoplight.io/prism/errors#';

/** `editDocument` changes the document Prism checks against (its own test breaks it on purpose). */
export async function behindPrism<P extends Platform>(
  platform: P,
  editDocument = (doc: any) => doc,
): Promise<P> {
  const document = await request<unknown>(platform.url, undefined, 'GET', '/v1/openapi.json');
  if (document.status !== 200) throw new Error(`prism: GET /v1/openapi.json answered ${document.status}`);
  const file = join(tmpdir(), `paygrid-openapi-${randomBytes(6).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(editDocument(document.body)));
  const port = await freePort();
  const prismUrl = `http://127.0.0.1:${port}`;
  const cli = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const args = [cli, 'proxy', file, platform.url, '--errors', '--host', '127.0.0.1', '--port', String(port)];
  const prism = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // Never outlive the tests (a suite whose beforeAll times out never calls stop()).
  process.once('exit', () => prism.kill('SIGKILL'));
  let prismLog = '';
  prism.stderr?.on('data', (chunk) => (prismLog = `${prismLog}${chunk}`.slice(-4000)));
  await eventually(
    async () => {
      const probe = await request<any>(prismUrl, undefined, 'GET', '/v1/__prism_probe');
      return String(probe.body?.type).startsWith(`${PRISM_ERROR}NO_PATH_MATCHED`) ? true : undefined;
    },
    60_000,
    250,
  ).catch((error) => {
    prism.kill('SIGKILL');
    throw new Error(`prism did not start: ${String(error)}\n${prismLog}`);
  });
  const counts = { validated: 0, answeredByServer: 0 };
  const api: Platform['api'] = async (key, method, path, body, headers) => {
    const response = await request<any>(prismUrl, key, method, path, body, headers);
    const type = response.body?.type;
    if (typeof type === 'string' && type.startsWith(PRISM_ERROR)) {
      if (type === `${PRISM_ERROR}VIOLATIONS`) {
        throw new Error(
          `prism: the response to ${method} ${path} breaks the OpenAPI document: ${JSON.stringify(response.body.validation)}`,
        );
      }
      // The request breaks the document (on purpose): the server answers it, unchecked.
      counts.answeredByServer++;
      return request(platform.url, key, method, path, body, headers);
    }
    if (response.headers.get('access-control-expose-headers') !== '*') {
      throw new Error(`prism: ${method} ${path} was answered without Prism in the path`);
    }
    counts.validated++;
    return response;
  };
  const stop = platform.stop;
  return Object.assign(platform, {
    api,
    async stop() {
      prism.kill('SIGTERM');
      rmSync(file, { force: true });
      await stop();
      process.stderr.write(
        `prism: ${counts.validated} responses validated against the document, ${counts.answeredByServer} deliberately invalid requests answered by the server directly\n`,
      );
      if (counts.validated === 0) throw new Error('prism: no response went through Prism');
    },
  });
}
