import { atom } from 'jotai';

/** Spec §9: toasts stay 1.5 s (confirmations) or 3 s (anything the viewer has to read or act on). */
export const TOAST_SHORT_MS = 1500;
export const TOAST_LONG_MS = 3000;

export interface Toast {
  /** New for every toast, so the same text shown twice restarts its timer. */
  id: number;
  text: string;
  durationMs: typeof TOAST_SHORT_MS | typeof TOAST_LONG_MS;
  tone: 'info' | 'error';
}

/** The one toast on screen; a new one replaces it. */
export const toastAtom = atom<Toast | null>(null);

let nextId = 1;

/** `set(showToastAtom, 'Link copied')`, or with `{ long: true }` / `{ tone: 'error' }` (errors stay 3 s). */
export const showToastAtom = atom(
  null,
  (_get, set, text: string, options: { long?: boolean; tone?: Toast['tone'] } = {}) => {
    const tone = options.tone ?? 'info';
    set(toastAtom, {
      id: nextId++,
      text,
      tone,
      durationMs: options.long || tone === 'error' ? TOAST_LONG_MS : TOAST_SHORT_MS,
    });
  },
);
