// dist/esm holds ES modules while the package is "type": "commonjs": a package.json of its
// own tells Node (and bundlers) how to load that folder.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'esm');
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
