// Launches the Debian chromium (apt-get install chromium) through playwright-core, which
// ships no browser of its own. A missing browser is a failure with instructions, never a
// silently skipped test.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from './platform';

/** Where the Debian package puts it; CHROMIUM_PATH overrides (another distribution). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots and other artefacts of the browser tests (gitignored). */
export const TEST_OUTPUT_DIR = join(ROOT, 'tests', 'output');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. The browser tests drive the Debian package: ` +
        'run `apt-get update && apt-get install -y chromium` (.ci/run does), or set CHROMIUM_PATH.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export function outputPath(file: string): string {
  mkdirSync(TEST_OUTPUT_DIR, { recursive: true });
  return join(TEST_OUTPUT_DIR, file);
}
