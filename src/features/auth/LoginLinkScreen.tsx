import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { loginWithToken } from '../../api/auth';
import { errorText } from '../../api/errors';
import { ApiError } from '../../api/http';
import { type LoginTokenResponse, messages, type OperatorChallenge } from '../../contract';
import { operatorHandoff } from '../../state/operatorHandoff';
import { Link } from '../../ui/Link';
import { Spinner } from '../../ui/Spinner';
import { AuthShell } from './AuthShell';
import { useFinishSignIn } from './session';

const m = messages.auth;

/**
 * A token is good for one sign-in: a second mount of the screen (React's StrictMode, a quick re-render) must
 * share the first request instead of spending the token twice and showing 'invalid' for a good link.
 */
const inFlight = new Map<string, Promise<LoginTokenResponse | OperatorChallenge>>();

/** /login/{token}: the link of a verification or password-reset mail, or of an operator's invitation. */
export function LoginLinkScreen() {
  const { token = '' } = useParams();
  return <LoginLink token={token} />;
}

/**
 * Posts the mailed token and signs in. Remembered on this device (localStorage, a long-lived token): a link
 * is opened on one's own phone, from one's own mailbox, and should keep that phone signed in. A reset link
 * lands on the account with an offer to set a new password.
 */
export function LoginLink({ token }: { token: string }) {
  const navigate = useNavigate();
  const finishSignIn = useFinishSignIn();
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger.
  useEffect(() => {
    let active = true;
    let request = inFlight.get(token);
    if (!request) {
      request = loginWithToken(token, true);
      inFlight.set(token, request);
    }
    request.then(
      async (answer) => {
        if (!active) return;
        inFlight.delete(token);
        // An operator's sign-in link: the console sets up their second factor.
        if ('operator_challenge' in answer) return navigate(...operatorHandoff(answer));
        await finishSignIn(answer, true);
        navigate('/account', { replace: true, state: { signedInWith: answer.link } });
      },
      (error: unknown) => {
        inFlight.delete(token);
        if (active) setFailure(error);
      },
    );
    return () => {
      active = false;
    };
  }, [token, attempt, finishSignIn, navigate]);

  if (failure === null) {
    return (
      <AuthShell title="Log in" heading="Signing you in…">
        <div className="auth-waiting">
          <Spinner />
        </div>
      </AuthShell>
    );
  }

  // 401 (unknown, used, expired) and 422 (not a token at all) mean the same to the person holding the link.
  const refused = failure instanceof ApiError && (failure.status === 401 || failure.status === 422);
  if (refused) {
    return (
      <AuthShell
        title="Log in"
        heading={m.invalidLoginLink}
        lead="Each link works once, and only for a while. Log in with your password, or ask for a new link."
      >
        <div className="auth-actions">
          <Link to="/login" replace className="btn btn-primary auth-wide-button">
            Log in
          </Link>
          <Link to="/forgot-password" className="btn btn-ghost auth-wide-button">
            Send me a new link
          </Link>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Log in" heading="Could not sign you in" lead={errorText(failure)}>
      <div className="auth-actions">
        <button
          type="button"
          className="btn btn-primary auth-wide-button"
          onClick={() => {
            setFailure(null);
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </button>
        <Link to="/login" replace className="btn btn-ghost auth-wide-button">
          Log in with password
        </Link>
      </div>
    </AuthShell>
  );
}
