import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { toastAtom } from '../state/toast';
import './ui.css';

/** The app-wide toast (spec §9: 1.5 s or 3 s); screens raise one with showToastAtom. */
export function ToastHost() {
  const [toast, setToast] = useAtom(toastAtom);
  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(
      () => setToast((current) => (current?.id === toast.id ? null : current)),
      toast.durationMs,
    );
    return () => window.clearTimeout(timer);
  }, [toast, setToast]);
  // The status region stays mounted, empty between toasts: screen readers announce what appears in a live
  // region that already exists, not in one that arrives with its text.
  return (
    <div className="app-toast-region" role="status" aria-atomic="true">
      {toast && (
        <p key={toast.id} className={`app-toast${toast.tone === 'error' ? ' is-error' : ''}`}>
          {toast.text}
        </p>
      )}
    </div>
  );
}
