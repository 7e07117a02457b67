// A benchmark file is both a module (imported by run.mjs) and a command: its main() runs
// only when the file itself is the command, never merely because it was imported.

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Whether the module at `moduleUrl` (its import.meta.url) is the file node was started with. */
export function isMain(moduleUrl) {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/**
 * Runs `main` when `moduleUrl` is the command, then exits (a stray handle cannot keep a
 * finished run alive): with process.exitCode, or 1 after printing the error as `[label] ...`.
 */
export function runIfMain(moduleUrl, label, main) {
  if (!isMain(moduleUrl)) return;
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error) => {
      process.stderr.write(`[${label}] ${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
