import { useEffect, useRef, useState } from 'react';
import { resendEmail } from '../../api/auth';
import { errorText } from '../../api/errors';
import { messages } from '../../contract';
import { Link } from '../../ui/Link';
import { AuthArt, AuthShell } from './AuthShell';
import { formatCountdown, RESEND_COUNTDOWN_MS, useCountdown } from './countdown';

const m = messages.auth;

/**
 * The stepper's last step (spec §4): the account exists and a link went to `email`. It says where, what to do
 * next, and offers to send the mail again once the 60 s countdown is over (and again 60 s after each resend).
 */
export function VerifyStep({
  email,
  creator,
  resendAt,
  onResent,
}: {
  email: string;
  creator: boolean;
  /** When Resend may be used (ms since the epoch), kept in the history entry so a reload does not reset it. */
  resendAt: number;
  onResent: (resendAt: number) => void;
}) {
  const left = useCountdown(resendAt);
  const [sending, setSending] = useState(false);
  const [note, setNote] = useState<{ text: string; tone: 'good' | 'error' } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The form it replaces had the focus: a screen reader user hears the new step from its title.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const resend = async () => {
    setSending(true);
    setNote(null);
    try {
      await resendEmail(email);
      setNote({ text: `We sent a new link to ${email}.`, tone: 'good' });
      onResent(Date.now() + RESEND_COUNTDOWN_MS);
    } catch (error) {
      setNote({ text: errorText(error, { network: m.registerNetwork }), tone: 'error' });
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthShell
      title="Create account"
      heading={m.verifyTitle}
      headingRef={headingRef}
      art={<MailArt />}
      lead={
        <>
          We sent a link to <strong className="auth-email">{email}</strong>.
        </>
      }
    >
      <ol className="auth-next">
        <li>Open the mail from ShortCams (look in spam if it is not there in a minute).</li>
        <li>Tap the link: it confirms your address and signs you in.</li>
        {creator ? (
          <li>Then verify your identity from your account to start uploading videos.</li>
        ) : (
          <li>Then follow creators and rate videos from your account.</li>
        )}
      </ol>
      <div className="auth-resend">
        <p className="auth-resend-note" role="status">
          {note && <span className={note.tone === 'error' ? 'is-error' : 'is-good'}>{note.text}</span>}
        </p>
        <button
          type="button"
          className="btn btn-ghost auth-wide-button"
          disabled={left > 0 || sending}
          aria-busy={sending}
          onClick={() => void resend()}
        >
          {sending && <span className="form-submit-spinner" aria-hidden="true" />}
          {left > 0 ? (
            <span>
              Resend email in <span className="auth-countdown">{formatCountdown(left)}</span>
            </span>
          ) : (
            <span>Resend email</span>
          )}
        </button>
        <Link to="/login" className="btn btn-primary auth-wide-button">
          Go to log in
        </Link>
      </div>
    </AuthShell>
  );
}

function MailArt() {
  return (
    <AuthArt>
      <rect x="6" y="11" width="36" height="26" rx="5" />
      <path d="m8 14 16 12 16-12" strokeLinecap="round" strokeLinejoin="round" />
    </AuthArt>
  );
}
