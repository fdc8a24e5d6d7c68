// A change counter per database, for answers kept in memory (discover, the home feed's pages): bumped where
// what viewers see changes at once (a video published, deleted or moderated, a creator's geo-block), so this
// node's cached answers are rebuilt at the next request instead of at the end of their period. Other API
// nodes see the change when their period ends.
const versions = new WeakMap<object, number>();

export const contentVersion = (db: object): number => versions.get(db) ?? 0;

export function contentChanged(db: object): void {
  versions.set(db, contentVersion(db) + 1);
}

/**
 * Answers kept in memory for `ttlMs` per key, dropped sooner when contentChanged(db) runs; requests that
 * arrive while a key is being built wait for that one build. At most `maxKeys` keys, the oldest going first.
 */
export function memo<T>(db: object, ttlMs: () => number, maxKeys: number) {
  const cache = new Map<string, { value: Promise<T>; expires: number; version: number }>();
  return (key: string, build: () => Promise<T>): Promise<T> => {
    const held = cache.get(key);
    if (held && held.expires > Date.now() && held.version === contentVersion(db)) return held.value;
    // The time and version of the start: a change during the build makes the next request build again.
    const entry = { value: build(), expires: Date.now() + ttlMs(), version: contentVersion(db) };
    cache.delete(key);
    if (cache.size >= maxKeys) cache.delete(cache.keys().next().value as string);
    cache.set(key, entry);
    entry.value.catch(() => cache.get(key) === entry && cache.delete(key));
    return entry.value;
  };
}
