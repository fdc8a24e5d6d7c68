import { type ReactNode, useEffect, useRef } from 'react';
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
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
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
