// The embedded data directory holds the ledger, API key hashes and webhook signing secrets,
// so nobody but the service's own user may read or write it. PGlite (Emscripten's node
// filesystem) creates its files 0666 whatever the process umask is: 967 of 1,283 files of a
// used DATA_DIR/pg were world-writable. So every start makes each directory 0700 and each
// file 0600, before PGlite opens the files and again once it has created its own. A 0700
// directory also closes the files PGlite creates while running (new WAL segments, tables)
// to other users, since nobody else can traverse into it.

import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** chmod -R: directories 0700, regular files 0600 (symbolic links are left alone). */
export function makePrivate(path: string): void {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat || stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(path, PRIVATE_DIR_MODE);
    for (const entry of readdirSync(path)) makePrivate(join(path, entry));
  } else if (stat.isFile() && (stat.mode & 0o777) !== PRIVATE_FILE_MODE) {
    chmodSync(path, PRIVATE_FILE_MODE);
  }
}
