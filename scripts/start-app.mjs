#!/usr/bin/env node
// The container's start command (Dockerfile CMD), also run outside Docker by
// scripts/check-deploy.sh: starts the app named by APP (gateway, payments, invoicing,
// webhooks, or embedded for the all-in-one default) from its build.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const APPS = ['gateway', 'payments', 'invoicing', 'webhooks', 'embedded'];
const app = process.env.APP;
if (!APPS.includes(app ?? '')) {
  console.error(`APP must be one of ${APPS.join(', ')} (got ${app === undefined ? 'nothing' : `"${app}"`})`);
  process.exit(2);
}
const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', app, 'dist', 'main.js');
if (!existsSync(main)) {
  console.error(`${main} is missing: build first (npm run build)`);
  process.exit(2);
}
await import(pathToFileURL(main).href);
