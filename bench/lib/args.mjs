// Minimal flag parsing: --name value, --name=value, --flag (true), --no-flag (false).

export function parseArgs(argv) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else if (arg.startsWith('--no-')) {
      flags[arg.slice(5)] = false;
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      flags[arg.slice(2)] = argv[++i];
    } else {
      flags[arg.slice(2)] = true;
    }
  }
  return flags;
}

export function numberFlag(flags, name, fallback, { min = -Infinity, max = Infinity } = {}) {
  if (flags[name] === undefined) return fallback;
  const value = Number(flags[name]);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`--${name} must be a number in [${min}, ${max}], got ${flags[name]}`);
  }
  return value;
}
