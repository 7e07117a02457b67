// class-validator resolves a class's rules on every validate() call, and each time scans every
// class that has any (MetadataStorage.getTargetValidationMetadatas: an `instanceof` per
// registered class, to find inherited rules): O(all DTOs) per validated object, per request.
// The result only changes when a rule is registered, at class load, so it is cached per
// argument tuple and the cache is dropped whenever a rule is added. Upstream:
// typestack/class-validator#2686 (open); bench/README.md finding 19 measured the scan at about
// 19 µs of CPU per request.

import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
const MEMOIZED = Symbol.for('paygrid.validationMetadataCache');

/** Installs the cache on class-validator's (process-wide) storage; a second call does nothing. */
export function memoizeValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const marked = storage as Storage & { [MEMOIZED]?: true };
  if (marked[MEMOIZED]) return;
  marked[MEMOIZED] = true;
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let cache = new WeakMap<object, Map<string, ReturnType<Lookup>>>();
  storage.addValidationMetadata = (metadata) => {
    cache = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}`;
    let byArgs = cache.get(target);
    if (!byArgs) cache.set(target, (byArgs = new Map()));
    let found = byArgs.get(key);
    if (!found) byArgs.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
}
