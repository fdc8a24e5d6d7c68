import { useState } from 'react';
import { useLocation } from 'react-router';
import { forgotPassword } from '../../api/auth';
import { forgotPasswordSchema, messages } from '../../contract';
import { Form, SubmitButton, TextField, useForm } from '../../ui/form';
import { Link } from '../../ui/Link';
import { AuthArt, AuthFooter, AuthShell } from './AuthShell';

const m = messages.auth;

/**
 * /forgot-password (spec §5, §8): the server mails a link that signs in once, to set a new password. The answer
 * is the same whether or not the address has an account; every failure reads as the spec says.
 */
export function ForgotPasswordScreen() {
  const location = useLocation();
  const typed = (location.state as { email?: unknown } | null)?.email;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    schema: forgotPasswordSchema,
    initial: { email: typeof typed === 'string' ? typed : '' },
    errorTexts: { network: m.recoveryFailed, serverMessage: false, fallback: m.recoveryFailed },
    onSubmit: async ({ email }) => {
      await forgotPassword(email);
      setSentTo(email);
    },
  });

  if (sentTo !== null) {
    return (
      <AuthShell title="Password recovery" heading="Check your inbox" art={<LockArt />}>
        <p className="auth-success" role="status">
          {m.recoverySent}
        </p>
        <p className="auth-muted">
          The link went to <strong className="auth-email">{sentTo}</strong> if it has an account. It signs you
          in once within an hour; then choose a new password in your account settings.
        </p>
        <div className="auth-actions">
          <Link to="/login" className="btn btn-primary auth-wide-button">
            Back to log in
          </Link>
          <button type="button" className="btn btn-ghost auth-wide-button" onClick={() => setSentTo(null)}>
            Send again
          </button>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Password recovery"
      heading="Forgot your password?"
      lead="Enter the email of your account and we will send you a link to sign in and change it."
      art={<LockArt />}
    >
      <Form form={form} aria-label="Password recovery">
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" maxLength={254} />
        <SubmitButton form={form}>Send link</SubmitButton>
      </Form>
      <AuthFooter>
        Remembered it? <Link to="/login">Log in</Link>
      </AuthFooter>
    </AuthShell>
  );
}

function LockArt() {
  return (
    <AuthArt>
      <rect x="10" y="21" width="28" height="20" rx="5" />
      <path d="M16 21v-5a8 8 0 0 1 16 0v5" strokeLinecap="round" />
      <circle cx="24" cy="31" r="2.5" fill="currentColor" stroke="none" />
    </AuthArt>
  );
}
