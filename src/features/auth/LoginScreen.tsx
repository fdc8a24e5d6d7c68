import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { login } from '../../api/auth';
import { loginSchema, messages } from '../../contract';
import { authAtom, returnPath } from '../../state/auth';
import { operatorHandoff } from '../../state/operatorHandoff';
import { CheckboxField, Form, PasswordField, SubmitButton, TextField, useForm } from '../../ui/form';
import { Link } from '../../ui/Link';
import { AuthFooter, AuthShell } from './AuthShell';
import { LoginLink } from './LoginLinkScreen';
import { useFinishSignIn } from './session';

const m = messages.auth;

/**
 * /login (spec §2, §4, §5): email, password and remember me (localStorage, else this tab only). After the
 * sign-in, back to the page the login wrapper came from, else the account. `?token=` is a mailed link.
 */
export function LoginScreen() {
  const location = useLocation();
  const auth = useAtomValue(authAtom);
  // Only who arrives signed in is sent on: a sign-in made here navigates itself once the account is read.
  const [arrivedSignedIn] = useState(() => auth !== null);
  const token = new URLSearchParams(location.search).get('token');
  if (token !== null) return <LoginLink token={token} />;
  if (arrivedSignedIn) return <Navigate to={returnPath(location.state, location.search)} replace />;
  return <LoginForm />;
}

function LoginForm() {
  const location = useLocation();
  const navigate = useNavigate();
  const finishSignIn = useFinishSignIn();
  const form = useForm({
    schema: loginSchema,
    initial: { email: '', password: '', remember_me: false },
    draft: { key: 'login', omit: ['password'] },
    // Spec §8: a sign-in that got no answer reads 'Invalid credentials'; the server's own words otherwise.
    errorTexts: { network: m.invalidCredentials },
    onSubmit: async (payload) => {
      const answer = await login(payload);
      // An operator's email: the password was right, the console asks for the second factor.
      if ('operator_challenge' in answer) return navigate(...operatorHandoff(answer));
      await finishSignIn(answer, payload.remember_me);
      navigate(returnPath(location.state, location.search), { replace: true });
    },
  });
  const email = form.values.email.trim();

  return (
    <AuthShell
      title="Log in"
      heading="Welcome back"
      lead="Log in to follow creators, rate videos and upload your own."
    >
      <Form form={form} aria-label="Log in">
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" maxLength={254} />
        <PasswordField form={form} name="password" label="Password" autoComplete="current-password" />
        <div className="auth-row">
          <CheckboxField form={form} name="remember_me" label="Remember me" />
          <Link
            to="/forgot-password"
            // The address typed here is the one to recover: the next screen starts with it.
            state={email ? { email } : undefined}
            className="auth-link"
          >
            Forgot password?
          </Link>
        </div>
        <SubmitButton form={form}>Log in</SubmitButton>
      </Form>
      <AuthFooter>
        New to ShortCams? <Link to="/register">Create account</Link>
      </AuthFooter>
    </AuthShell>
  );
}
