import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { authAtom } from '../state/auth';
import { Link } from '../ui/Link';
import { CloseIcon } from '../ui/more-icons';
import { SignupSheet } from '../ui/SignupSheet';
import { DrawerFooter } from './DrawerFooter';
import { DrawerMenu } from './DrawerMenu';
import './drawer.css';

/**
 * The main menu (spec §2 "Main menu"): a side drawer over the app, as a modal dialog so focus stays in it
 * and Escape or a tap outside closes it. Guests and logged-in users see different entries.
 */
export function Drawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const auth = useAtomValue(authAtom);
  const [ratePrompt, setRatePrompt] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <>
      <dialog
        ref={ref}
        className="drawer"
        aria-label="Menu"
        onCancel={(event) => {
          event.preventDefault();
          onClose();
        }}
        onClose={() => {
          if (open) onClose();
        }}
        onClick={(event) => {
          // A click on the backdrop lands on the dialog element itself.
          if (event.target === event.currentTarget) onClose();
        }}
        // Keys stay in the menu: the feed behind must not move on arrow or Page keys.
        onKeyDown={(event) => event.stopPropagation()}
      >
        <div className="drawer-panel">
          <div className="drawer-head">
            <span className="drawer-brand">
              <img src="/favicon.svg" alt="" width="28" height="28" />
              ShortCams
            </span>
            <button type="button" className="drawer-close" aria-label="Close menu" onClick={onClose}>
              <CloseIcon />
            </button>
          </div>

          {!auth && (
            <section className="drawer-promo" aria-label="For creators">
              <p className="drawer-promo-title">Are you a content creator?</p>
              <p className="drawer-promo-text">Promote your videos</p>
              <Link to="/register" className="btn btn-primary drawer-promo-cta" onClick={onClose}>
                Get started
              </Link>
            </section>
          )}

          <DrawerMenu onClose={onClose} onRatePrompt={() => setRatePrompt(true)} />

          <DrawerFooter onClose={onClose} />
        </div>
      </dialog>
      {ratePrompt && (
        <SignupSheet
          title="Rate videos"
          text="Create a free account to rate videos and get better recommendations."
          onClose={() => {
            setRatePrompt(false);
            onClose();
          }}
        />
      )}
    </>
  );
}
