// Where `paygrid login` keeps keys: one JSON file (mode 0600, its folder 0700) with a key and
// base URL per profile. PAYGRID_CONFIG names another file; PAYGRID_KEY and PAYGRID_URL
// override the profile (CI, scripts).

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Profile {
  key: string;
  base_url: string;
}

export interface ConfigFile {
  profiles: Record<string, Profile>;
}

export function configPath(env: Record<string, string | undefined>, home: string): string {
  return env.PAYGRID_CONFIG ?? join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'paygrid', 'config.json');
}

export function readConfig(path: string): ConfigFile {
  if (!existsSync(path)) return { profiles: {} };
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConfigFile>;
  return { profiles: parsed.profiles ?? {} };
}

/** Writes the file readable by its owner only: it holds secret keys. */
export function writeConfig(path: string, config: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
