import { useRef, useState } from 'react';
import { adminMessages } from '../../contract/admin';
import { useCounts } from './counts';
import { isConflict, showFromTop, useFlash } from './parts';
import type { useConsoleList } from './useConsoleList';

type List<T> = ReturnType<typeof useConsoleList<T>>;

/**
 * A queue worked one item at a time (uploads to review, identity checks): which item is open, what a decision
 * does to the list (the item leaves and the next one opens), and someone else's decision first (the list is
 * read again and says so). `act` runs a one-click decision (approve); a dialog's decision calls `decided`.
 */
export function useDecisionQueue<T extends { id: number }>(list: List<T>) {
  const counts = useCounts();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const { flash, show, fail } = useFlash();
  const detail = useRef<HTMLElement>(null);

  const { items } = list;
  const index = Math.max(
    0,
    items.findIndex((item) => item.id === selectedId),
  );
  const selected = items[index] ?? null;

  /** The decided item leaves; the one after it (or before, at the end) opens. */
  const decided = (item: T, text: string) => {
    const at = items.findIndex((i) => i.id === item.id);
    const next = items[at + 1] ?? items[at - 1] ?? null;
    list.remove(item.id);
    setSelectedId(next?.id ?? null);
    show({ tone: 'ok', text });
    counts.refresh();
    showFromTop(detail.current);
  };
  const conflict = () => {
    show({ tone: 'error', text: adminMessages.notWaiting });
    list.reload();
    counts.refresh();
  };
  const act = async (item: T, send: () => Promise<unknown>, text: string) => {
    if (busy) return;
    setBusy(true);
    show(null);
    try {
      await send();
      decided(item, text);
    } catch (error) {
      if (isConflict(error)) conflict();
      else fail(error);
    } finally {
      setBusy(false);
    }
  };

  return { items, index, selected, setSelectedId, busy, flash, show, detail, decided, conflict, act };
}
