// The empty database the embedded suites start from. initdb is most of an in-memory
// platform's start (1.6-2.8 s of CPU on the 2-core CI machine, against 0.4-0.5 s to load an
// image), and the suites start a platform well over a hundred times per run. The first start
// of a run writes the image to the temporary directory, keyed by the PGlite version; every
// later start, in any Jest worker, loads it. The services' migrations still run each time.

import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyDatabaseImage } from '@paygrid/platform';

let loaded: Blob | undefined;

function pgliteVersion(root: string): string {
  const manifest = join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

export async function databaseImage(root: string): Promise<Blob> {
  if (loaded) return loaded;
  const file = join(tmpdir(), `paygrid-pglite-image-${pgliteVersion(root)}.tar`);
  try {
    loaded = new Blob([readFileSync(file)]);
  } catch {
    const image = await emptyDatabaseImage();
    // Written aside and renamed: a worker reading it never sees half a file.
    const partial = `${file}.${process.pid}.${Date.now()}`;
    writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    renameSync(partial, file);
    loaded = image;
  }
  return loaded;
}
