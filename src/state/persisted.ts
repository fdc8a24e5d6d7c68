import { atom, type WritableAtom } from 'jotai';
import { type KvSchema, readKv, writeKv } from '../offline/kv';

type SetStateAction<T> = T | ((prev: T) => T);

/**
 * An atom backed by one IndexedDB key: it starts at `initial` (never suspends a screen), hydrates from the
 * device once mounted, and writes every change back. A change made before hydration finishes wins over the
 * stored value. Storage failures (private mode, quota) leave the in-memory value working.
 */
export function persistedAtom<K extends keyof KvSchema>(
  key: K,
  initial: KvSchema[K],
): WritableAtom<KvSchema[K], [SetStateAction<KvSchema[K]>], void> {
  const base = atom<{ value: KvSchema[K]; touched: boolean }>({ value: initial, touched: false });
  base.onMount = (set) => {
    void readKv(key)
      .then((stored) => {
        if (stored !== undefined) set((cur) => (cur.touched ? cur : { value: stored, touched: false }));
      })
      .catch(() => undefined);
  };
  return atom(
    (get) => get(base).value,
    (get, set, update: SetStateAction<KvSchema[K]>) => {
      const next =
        typeof update === 'function'
          ? (update as (prev: KvSchema[K]) => KvSchema[K])(get(base).value)
          : update;
      set(base, { value: next, touched: true });
      void writeKv(key, next).catch(() => undefined);
    },
  );
}
