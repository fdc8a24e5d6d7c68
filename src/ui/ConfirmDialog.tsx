import { useEffect, useId, useRef } from 'react';
import { useModal } from './Sheet';
import './sheet.css';

/**
 * "Are you sure?" before something that cannot be undone (delete a link or a video, leave a studio): a modal
 * alert dialog, Cancel first and focused, so Enter or a stray tap never confirms by accident.
 */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onCancel,
  busy = false,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  /** The safe choice's words, when 'Cancel' would be ambiguous (cancelling an upload). */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirmed action is under way: both buttons wait. */
  busy?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  useModal(ref);
  // showModal() moves the focus itself (to the dialog, in current browsers): Cancel takes it after that.
  useEffect(() => cancel.current?.focus(), []);
  return (
    <dialog
      ref={ref}
      className="sheet confirm-dialog"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onKeyDown={(event) => event.stopPropagation()}
    >
      <div className="sheet-body">
        <h2 id={`${id}-title`} className="sheet-title">
          {title}
        </h2>
        <p id={`${id}-text`} className="confirm-text">
          {text}
        </p>
        <div className="confirm-actions">
          <button ref={cancel} type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            onClick={onConfirm}
            disabled={busy}
            aria-busy={busy}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
