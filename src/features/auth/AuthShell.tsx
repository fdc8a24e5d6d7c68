import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { ScreenHeader } from '../../ui/ScreenHeader';
import './auth.css';

/**
 * The frame of every sign-up and sign-in screen: the app's header with a back button, the brand, a title
 * and a line about what happens here, then the form in a card (a centred column on wide screens).
 */
export function AuthShell({
  title,
  heading,
  lead,
  art,
  progress,
  headingRef,
  children,
}: {
  /** The header's title (what the screen is); `heading` is what this step asks. */
  title: string;
  heading: string;
  lead?: ReactNode;
  /** A picture in place of the brand mark (the mail of the verify step). */
  art?: ReactNode;
  progress?: ReactNode;
  /** Focused when a stepper moves on, so a screen reader starts reading the new step. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  children: ReactNode;
}) {
  return (
    <>
      <ScreenHeader title={title} />
      <div className="auth">
        <div className="auth-glow" aria-hidden="true" />
        <div className="auth-column">
          {progress}
          <div className="auth-hero">
            {art ?? (
              <span className="auth-mark" aria-hidden="true">
                <img src="/favicon.svg" alt="" width="36" height="36" />
              </span>
            )}
            <h2 className="auth-heading" ref={headingRef} tabIndex={-1}>
              {heading}
            </h2>
            {lead && <p className="auth-lead">{lead}</p>}
          </div>
          <div className="auth-card">{children}</div>
        </div>
      </div>
    </>
  );
}

/** Moves focus to the heading whenever `key` changes after the first render (a stepper's next step). */
export function useFocusOnChange(key: string) {
  const ref = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the trigger: a new step was shown.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [key]);
  return ref;
}

/** A line under the form: a question and the link that answers it ('New here? Create account'). */
export function AuthFooter({ children }: { children: ReactNode }) {
  return <p className="auth-footer">{children}</p>;
}

/** The line drawing above a screen's title (a lock, a letter): one frame, each screen its own strokes. */
export function AuthArt({ children }: { children: ReactNode }) {
  return (
    <span className="auth-art" aria-hidden="true">
      <svg
        viewBox="0 0 48 48"
        width="40"
        height="40"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.6"
        aria-hidden="true"
      >
        {children}
      </svg>
    </span>
  );
}
