import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';
import './sheet.css';

/**
 * Bottom sheet on phones, centred card on wide screens. A native modal <dialog>: focus is trapped and
 * restored, Escape closes, the page behind is inert, without any library.
 */
export function Sheet({
  title,
  onClose,
  children,
  className = '',
  closeOnBackdrop = true,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  /**
   * false where a drag may end outside the card (an image being cropped): the click that ends such a drag
   * lands on the backdrop and must not throw the work away. Escape still closes.
   */
  closeOnBackdrop?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useModal(ref);
  return (
    <dialog
      ref={ref}
      className={`sheet ${className}`}
      aria-label={title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (closeOnBackdrop && event.target === event.currentTarget) onClose();
      }}
      onKeyDown={(event) => event.stopPropagation()}
    >
      <div className="sheet-body">
        <div className="sheet-grip" aria-hidden="true" />
        <h2 className="sheet-title">{title}</h2>
        {children}
      </div>
    </dialog>
  );
}

/**
 * Whether an event started in an open sheet or dialog. React bubbles events through the component tree, and a
 * sheet is rendered inside the screen that opened it: a screen with its own gestures (the feed) must ignore
 * what starts in one, or a drag on the dimmed backdrop would move the video beneath. The sheet cannot stop the
 * events itself: stopping them at React's root would also hide them from the document-level listeners that
 * the cropper and the signature pad inside sheets rely on.
 */
export const startedInDialog = (event: { target: EventTarget | null }) =>
  event.target instanceof Element && event.target.closest('dialog') !== null;

/**
 * Opens `ref`'s dialog as a modal while the component is mounted. On the way out the focus goes back to what
 * had it before (the button that opened it): the dialog is closed before React removes it, since a dialog
 * already out of the document hands the focus back to nothing, and a keyboard user would start over at the
 * top of the page.
 */
export function useModal(ref: RefObject<HTMLDialogElement | null>) {
  useLayoutEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, [ref]);
}
