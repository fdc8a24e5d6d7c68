import { atom, type createStore, type PrimitiveAtom, type WritableAtom } from 'jotai';
import { type KvSchema, readKv, writeKv } from './kv';

type SetStateAction<T> = T | ((prev: T) => T);
type Cell<T> = { value: T; touched: boolean };

const registry: { key: keyof KvSchema; base: PrimitiveAtom<Cell<unknown>> }[] = [];

/**
 * An atom backed by one IndexedDB key: it starts at `initial`, is filled from the device before the first
 * render (`hydratePersisted`) or else once mounted, and writes every change back. A change made before the
 * stored value arrives wins over it. Storage failures (private mode, quota) leave the in-memory value working.
 */
export function persistedAtom<K extends keyof KvSchema>(
  key: K,
  initial: KvSchema[K],
): WritableAtom<KvSchema[K], [SetStateAction<KvSchema[K]>], void> {
  const base = atom<Cell<KvSchema[K]>>({ value: initial, touched: false });
  registry.push({ key, base: base as PrimitiveAtom<Cell<unknown>> });
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

/**
 * Reads every persisted key into `store` at once. Awaited before the first render, so the home feed asks for
 * the viewer's own gender and tags the first time instead of loading the defaults and then reloading.
 */
export async function hydratePersisted(store: ReturnType<typeof createStore>): Promise<void> {
  await Promise.all(
    registry.map(async ({ key, base }) => {
      const stored = await readKv(key).catch(() => undefined);
      if (stored !== undefined && !store.get(base).touched)
        store.set(base, { value: stored, touched: false });
    }),
  );
}
