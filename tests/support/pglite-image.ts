// The database the embedded suites start from: migrated, holding no data. initdb and the
// migrations are most of an in-memory platform's start (initdb alone 1.6-2.8 s of CPU on the
// 2-core CI machine; loading an image 0.4-0.5 s), and the suites start a platform well over a
// hundred times per run. The first start of a run builds the image (a platform started from a
// fresh cluster and stopped at once, `Embedded.stopToImage`) and writes it to the temporary
// directory; every later start, in any Jest worker, loads it. The image is keyed by a hash of
// the PGlite version and of every source file of apps/ and libs/ (migrations live there, and
// what a start writes), so an edit never meets an image of older code.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyDatabaseImage } from '@paygrid/platform';

const PREFIX = 'paygrid-pglite-image-';
let loaded: Blob | undefined;

function sourceFiles(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) out.push(path);
  }
  return out;
}

function imageKey(root: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  for (const group of ['apps', 'libs']) {
    for (const unit of readdirSync(join(root, group)).sort()) {
      let files: string[];
      try {
        files = sourceFiles(join(root, group, unit, 'src'), []).sort();
      } catch {
        continue; // no src/
      }
      for (const file of files) hash.update(file.slice(root.length)).update(readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The migrated image for `startEmbedded({ databaseImage })`; `build` starts a platform from the
 * given empty cluster and answers `stopToImage()`.
 */
export async function databaseImage(root: string, build: (empty: Blob) => Promise<Blob>): Promise<Blob> {
  if (loaded) return loaded;
  const name = `${PREFIX}${imageKey(root)}.tar`;
  const file = join(tmpdir(), name);
  try {
    loaded = new Blob([readFileSync(file)]);
    return loaded;
  } catch {
    // not built yet in this run
  }
  const image = await build(await emptyDatabaseImage());
  // Written aside and renamed: a worker reading it never sees half a file.
  const partial = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
  renameSync(partial, file);
  // Images of other code (an earlier run, another checkout) are 40 MB each.
  for (const other of readdirSync(tmpdir())) {
    if (other.startsWith(PREFIX) && other !== name && !other.includes('.tar.'))
      rmSync(join(tmpdir(), other), { force: true });
  }
  loaded = image;
  return loaded;
}
