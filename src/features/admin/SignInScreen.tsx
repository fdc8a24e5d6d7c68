import { useAtomValue, useSetAtom } from 'jotai';
import { type ReactNode, useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import * as v from 'valibot';
import { operatorSetupConfirm, operatorSetupStart, operatorSignIn } from '../../api/admin';
import { errorText } from '../../api/errors';
import { ApiError } from '../../api/http';
import {
  adminMessages,
  OPERATOR_PASSWORD_MIN,
  type OperatorSession,
  type OperatorSetupStart,
  operatorSetupSchema,
  operatorSignInSchema,
} from '../../contract/admin';
import { handedOver } from '../../state/operatorHandoff';
import {
  CheckboxField,
  Form,
  type FormApi,
  PasswordField,
  SubmitButton,
  TextField,
  useForm,
} from '../../ui/form';
import { Link } from '../../ui/Link';
import { DownloadIcon } from '../../ui/more-icons';
import { Spinner } from '../../ui/Spinner';
import { CopyIcon } from './icons';
import { usePageTitle } from './parts';
import { operatorSessionAtom, sessionEndAtom, takeConsolePath } from './session';
import './sign-in.css';

type SetupAnswer = OperatorSession & { recovery_codes: string[] };

/** A new session: the reason the last one ended is no longer news. */
function useStartSession() {
  const setSession = useSetAtom(operatorSessionAtom);
  const setEnd = useSetAtom(sessionEndAtom);
  return (session: OperatorSession) => {
    setEnd(null);
    setSession(session);
  };
}

/** A challenge the server no longer knows: the way on is a new sign-in from /login. */
const challengeGone = (error: unknown) =>
  error instanceof ApiError && error.status === 401 && error.message === adminMessages.challengeEnded;

/**
 * /admin/sign-in: the console's half of an operator's sign-in. /login (email and password) or a one-time
 * link hands over a challenge in the history entry's state: the code step, or for a first sign-in the setup
 * of the authenticator app and the password, ending with the recovery codes shown once.
 */
export function SignInScreen() {
  const location = useLocation();
  const session = useAtomValue(operatorSessionAtom);
  const end = useAtomValue(sessionEndAtom);
  const [setupDone, setSetupDone] = useState<SetupAnswer | null>(null);
  const handed = handedOver(location.state);
  const validChallenge = handed && v.is(operatorSignInSchema.entries.challenge, handed.challenge);

  if (setupDone) return <RecoveryCodes answer={setupDone} />;
  if (session) return <Navigate to="/admin" replace />;

  const notice =
    end === 'ended' ? (
      <p className="admin-auth-notice is-warn" role="alert">
        {adminMessages.sessionEnded}
      </p>
    ) : end === 'signed-out' ? (
      <p className="admin-auth-notice" role="status">
        You have signed out.
      </p>
    ) : null;

  if (!handed || !validChallenge)
    return (
      <AuthCard title="Operators’ console">
        {notice}
        {handed && <p className="admin-auth-notice is-warn">{adminMessages.challengeEnded}</p>}
        <p className="admin-auth-lead">
          Operators sign in with their email and password, then confirm with the code of their authenticator
          app.
        </p>
        <Link to="/login" className="btn btn-primary admin-auth-wide">
          Sign in with email and password
        </Link>
        <p className="admin-auth-small">
          New operator? Open the one-time sign-in link an admin gave you to set up your sign-in.
        </p>
      </AuthCard>
    );

  return handed.step === 'totp' ? (
    <CodeStep challenge={handed.challenge} notice={notice} />
  ) : (
    <SetupStep challenge={handed.challenge} onDone={setSetupDone} />
  );
}

function AuthCard({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  usePageTitle(title);
  return (
    <main className="admin-auth">
      <div className={`admin-auth-card${wide ? ' is-wide' : ''}`}>
        <p className="admin-brand">
          <span className="admin-brand-mark" aria-hidden="true">
            S
          </span>
          <span>
            ShortCams <span className="admin-brand-sub">Console</span>
          </span>
        </p>
        <h1 className="admin-auth-title">{title}</h1>
        {children}
      </div>
    </main>
  );
}

function StartAgain() {
  return (
    <p className="admin-auth-small">
      <Link to="/login">Start again with your email and password</Link>
    </p>
  );
}

function CodeStep({ challenge, notice }: { challenge: string; notice: ReactNode }) {
  const navigate = useNavigate();
  const setSession = useStartSession();
  const [recovery, setRecovery] = useState(false);
  const [gone, setGone] = useState(false);
  const form = useForm({
    schema: operatorSignInSchema,
    initial: { challenge, code: '' },
    onError: (error) => setGone(challengeGone(error)),
    onSubmit: async (input) => {
      const answer = await operatorSignIn(input);
      setSession(answer);
      navigate(takeConsolePath(), { replace: true });
    },
  });

  return (
    <AuthCard title="Enter your code">
      {notice}
      <p className="admin-auth-lead">
        Open your authenticator app and type the 6-digit code it shows for ShortCams. Lost your phone? Use one
        of your recovery codes instead.
      </p>
      <Form form={form}>
        <CodeField form={form} recovery={recovery} />
        <button
          type="button"
          className="admin-link-button admin-auth-switch"
          aria-pressed={recovery}
          onClick={() => setRecovery((r) => !r)}
        >
          {recovery ? 'Use a code from the app' : 'Use a recovery code'}
        </button>
        <SubmitButton form={form}>Sign in</SubmitButton>
      </Form>
      {gone ? (
        <Link to="/login" className="btn btn-ghost admin-auth-wide">
          Start again
        </Link>
      ) : (
        <StartAgain />
      )}
    </AuthCard>
  );
}

/**
 * The code: digits on a phone's number pad by default; a recovery code has letters, so its switch brings
 * the full keyboard. Either is accepted whatever the keyboard.
 */
function CodeField({
  form,
  recovery,
}: {
  form: FormApi<{ challenge: string; code: string }>;
  recovery: boolean;
}) {
  return (
    <TextField
      form={form}
      name="code"
      label="Code"
      hint={recovery ? 'A recovery code looks like k7p2-x9cq-4mzt.' : '6 digits, e.g. 123 456.'}
      inputMode={recovery ? 'text' : 'numeric'}
      autoComplete="one-time-code"
      autoCapitalize="off"
      maxLength={20}
      className="admin-code-field"
    />
  );
}

function SetupStep({ challenge, onDone }: { challenge: string; onDone: (answer: SetupAnswer) => void }) {
  const [key, setKey] = useState<
    | { status: 'loading' }
    | { status: 'ready'; data: OperatorSetupStart }
    | { status: 'error'; error: unknown }
  >({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry.
  useEffect(() => {
    let active = true;
    setKey({ status: 'loading' });
    // The server answers the same key until the setup is confirmed, so asking twice is harmless.
    operatorSetupStart(challenge).then(
      (data) => active && setKey({ status: 'ready', data }),
      (error: unknown) => active && setKey({ status: 'error', error }),
    );
    return () => {
      active = false;
    };
  }, [challenge, attempt]);

  if (key.status === 'loading')
    return (
      <AuthCard title="Set up your sign-in">
        <div className="admin-auth-spinner">
          <Spinner />
        </div>
      </AuthCard>
    );
  if (key.status === 'error')
    return (
      <AuthCard title="Set up your sign-in">
        <p className="admin-auth-notice is-warn" role="alert">
          {errorText(key.error)}
        </p>
        {challengeGone(key.error) ? (
          <Link to="/login" className="btn btn-primary admin-auth-wide">
            Start again
          </Link>
        ) : (
          <button
            type="button"
            className="btn btn-primary admin-auth-wide"
            onClick={() => setAttempt((n) => n + 1)}
          >
            Retry
          </button>
        )}
      </AuthCard>
    );
  return <SetupForm challenge={challenge} setup={key.data} onDone={onDone} />;
}

function useCopied() {
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 4000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = (what: string, text: string) =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(what),
      () => setCopied(null),
    );
  return { copied, copy };
}

function SetupForm({
  challenge,
  setup,
  onDone,
}: {
  challenge: string;
  setup: OperatorSetupStart;
  onDone: (answer: SetupAnswer) => void;
}) {
  const { copied, copy } = useCopied();
  const form = useForm({
    schema: operatorSetupSchema,
    initial: { challenge, password: '', password_confirmation: '', code: '' },
    onSubmit: async (input) => onDone(await operatorSetupConfirm(input)),
  });

  return (
    <AuthCard title="Set up your sign-in" wide>
      <p className="admin-auth-lead">
        Welcome, <strong>{setup.email}</strong>. The console asks for a password and a code from an
        authenticator app (Google Authenticator, 1Password, Authy…) each time you sign in.
      </p>
      <div className="admin-setup">
        <section className="admin-setup-step" aria-labelledby="admin-setup-scan">
          <h2 id="admin-setup-scan" className="admin-setup-title">
            <span className="admin-step-number" aria-hidden="true">
              1
            </span>
            Add ShortCams to your app
          </h2>
          <p className="admin-setup-text">Scan this QR code with the app.</p>
          <div className="admin-qr">
            <img src={setup.qr} alt="QR code of your sign-in key, for your authenticator app" />
          </div>
          <p className="admin-setup-text">Cannot scan it? Type this key into the app instead:</p>
          <div className="admin-secret">
            <code className="admin-secret-key">{setup.secret}</code>
            <button type="button" className="btn btn-ghost" onClick={() => void copy('key', setup.secret)}>
              <CopyIcon aria-hidden="true" />
              Copy key
            </button>
          </div>
          <p className="admin-auth-small" role="status">
            {copied === 'key' ? 'The key is copied.' : ''}
          </p>
          <a href={setup.uri} className="admin-auth-small admin-setup-open">
            On this phone? Open the key in your authenticator app
          </a>
        </section>
        <section className="admin-setup-step" aria-labelledby="admin-setup-confirm">
          <h2 id="admin-setup-confirm" className="admin-setup-title">
            <span className="admin-step-number" aria-hidden="true">
              2
            </span>
            Choose a password and confirm
          </h2>
          <Form form={form} aria-labelledby="admin-setup-confirm">
            <input type="email" name="username" value={setup.email} autoComplete="username" readOnly hidden />
            <PasswordField
              form={form}
              name="password"
              label="New password"
              hint={`At least ${OPERATOR_PASSWORD_MIN} characters.`}
              autoComplete="new-password"
            />
            <PasswordField
              form={form}
              name="password_confirmation"
              label="Repeat the password"
              autoComplete="new-password"
            />
            <TextField
              form={form}
              name="code"
              label="Code from the app"
              hint="The 6 digits the app shows now for ShortCams."
              inputMode="numeric"
              autoComplete="one-time-code"
              autoCapitalize="off"
              maxLength={9}
              className="admin-code-field"
            />
            <SubmitButton form={form}>Finish setup</SubmitButton>
          </Form>
        </section>
      </div>
      <StartAgain />
    </AuthCard>
  );
}

const savedSchema = v.object({
  saved: v.literal(true, 'Save the codes first, then tick this box.'),
});

/** Shown once, right after the setup: nothing can show these codes again. */
function RecoveryCodes({ answer }: { answer: SetupAnswer }) {
  const navigate = useNavigate();
  const setSession = useStartSession();
  const { copied, copy } = useCopied();
  const [download, setDownload] = useState<string | null>(null);
  const text = `ShortCams console recovery codes for ${answer.operator.email}\nEach code signs in once, in place of a code from the app.\n\n${answer.recovery_codes.join('\n')}\n`;

  useEffect(() => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    setDownload(url);
    return () => URL.revokeObjectURL(url);
  }, [text]);

  const form = useForm({
    schema: savedSchema,
    initial: { saved: false },
    onSubmit: () => {
      const { recovery_codes: _shownOnce, ...session } = answer;
      setSession(session);
      navigate(takeConsolePath(), { replace: true });
    },
  });

  return (
    <AuthCard title="Save your recovery codes" wide>
      <p className="admin-auth-notice is-ok" role="status">
        Your sign-in is set up.
      </p>
      <p className="admin-auth-lead">
        If you lose the phone with your authenticator app, each of these codes signs you in once. Keep them
        somewhere safe, such as a password manager. <strong>They are shown only now.</strong>
      </p>
      <ol className="admin-recovery" aria-label="Recovery codes">
        {answer.recovery_codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="admin-recovery-actions">
        <button type="button" className="btn btn-ghost" onClick={() => void copy('codes', text)}>
          <CopyIcon aria-hidden="true" />
          Copy codes
        </button>
        {download && (
          <a className="btn btn-ghost" href={download} download="shortcams-recovery-codes.txt">
            <DownloadIcon aria-hidden="true" />
            Download
          </a>
        )}
      </div>
      <p className="admin-auth-small" role="status">
        {copied === 'codes' ? 'The codes are copied.' : ''}
      </p>
      <Form form={form} aria-label="Continue">
        <CheckboxField form={form} name="saved" label="I have saved my recovery codes" />
        <SubmitButton form={form}>Continue to the console</SubmitButton>
      </Form>
    </AuthCard>
  );
}
