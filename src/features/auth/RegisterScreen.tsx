import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import * as v from 'valibot';
import { checkUsername, register } from '../../api/auth';
import { isAbort } from '../../api/errors';
import { fetchCountries } from '../../api/geo';
import { ApiError } from '../../api/http';
import { useRequest } from '../../api/useRequest';
import { messages, usernameSchema } from '../../contract';
import { authAtom } from '../../state/auth';
import { preferencesCategoryAtom } from '../../state/preferences';
import {
  CheckboxField,
  ChoiceField,
  Form,
  type FormApi,
  issuesToErrors,
  PasswordField,
  SelectField,
  SubmitButton,
  TextField,
  useForm,
} from '../../ui/form';
import { PlayIcon } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { CamIcon } from '../../ui/more-icons';
import { AuthFooter, AuthShell, useFocusOnChange } from './AuthShell';
import { RESEND_COUNTDOWN_MS } from './countdown';
import {
  currentStep,
  emptyRegisterValues,
  type FormStep,
  firstStep,
  isSignupType,
  nextStep,
  progressOf,
  type RegisterValues,
  type SignupType,
  STEP_FIELDS,
  type Step,
  stepOfFields,
  stepperSchema,
} from './steps';
import { VerifyStep } from './VerifyStep';

const m = messages.auth;

/** What a history entry of the stepper remembers: its step, and once sent, where the mail went. */
interface StepState {
  step?: Step;
  email?: string;
  type?: SignupType;
  resendAt?: number;
}

/**
 * /register and /register/{type}: the sign-up stepper (spec §2, §4, §5). Each step is a history entry, so the
 * phone's back gesture goes to the previous step, and a reload stays on the step (what was typed is kept as a
 * draft on the device, never the passwords).
 */
export function RegisterScreen() {
  const auth = useAtomValue(authAtom);
  const { type } = useParams();
  if (auth) return <Navigate to="/account" replace />;
  if (type !== undefined && !isSignupType(type)) return <Navigate to="/register" replace />;
  // Keyed: /register/user and /register/model are two flows with their own drafts.
  return <Stepper key={type ?? 'any'} fixedType={type} />;
}

const typeChoices = [
  {
    value: 'user',
    label: m.watchVideos,
    description: 'Follow creators, like and rate videos',
    icon: <PlayIcon />,
  },
  {
    value: 'model',
    label: m.postVideos,
    description: 'Upload clips and grow your audience',
    icon: <CamIcon />,
  },
];
const sexChoices = [
  { value: 'm', label: 'Male' },
  { value: 't', label: 'Trans' },
];

const headings: Record<FormStep, { heading: string; lead: string }> = {
  type: { heading: 'Join ShortCams', lead: 'How do you want to use it?' },
  username: { heading: 'Choose your username', lead: 'It is the address of your creator profile.' },
  sex: { heading: 'Your category', lead: 'Viewers pick whom they see; your videos show in this category.' },
  final: { heading: 'Create your account', lead: 'Free, and done in a minute.' },
};

function Stepper({ fixedType }: { fixedType: SignupType | undefined }) {
  const location = useLocation();
  const navigate = useNavigate();
  const state = (location.state ?? {}) as StepState;
  const preference = useAtomValue(preferencesCategoryAtom);
  const [checking, setChecking] = useState(false);

  const goTo = (step: Step, options: { replace?: boolean; extra?: StepState } = {}) =>
    navigate(location.pathname, { replace: options.replace, state: { step, ...options.extra } });

  const form = useForm({
    schema: stepperSchema,
    initial: emptyRegisterValues(fixedType),
    draft: { key: `register:${fixedType ?? 'any'}`, omit: ['password', 'password_confirmation'] },
    errorTexts: { network: m.registerNetwork },
    onSubmit: async (payload, values) => {
      await register({ ...payload, preference });
      goTo('verify', {
        replace: true,
        extra: {
          email: payload.email,
          type: values.type === 'model' ? 'model' : 'user',
          resendAt: Date.now() + RESEND_COUNTDOWN_MS,
        },
      });
      // Going back from the mail's step starts a new sign-up, not a second send of this one.
      form.reset();
    },
    onError: (error) => {
      // The server refused a field of an earlier step (a username taken meanwhile): show it there.
      if (!(error instanceof ApiError) || !error.errors) return;
      const step = stepOfFields(form.values.type, Object.keys(error.errors));
      if (step && step !== 'final') goTo(step);
    },
  });

  const verifying = state.step === 'verify' && Boolean(state.email);
  const step = currentStep(form.values.type, fixedType, state.step);
  const headingRef = useFocusOnChange(verifying ? 'verify' : step);

  if (verifying) {
    return (
      <VerifyStep
        email={state.email ?? ''}
        creator={state.type === 'model'}
        resendAt={state.resendAt ?? 0}
        onResent={(resendAt) => goTo('verify', { replace: true, extra: { ...state, resendAt } })}
      />
    );
  }

  const continueFrom = async () => {
    if (step === 'final') {
      // A field of an earlier step may be wrong (a reload mid-flow, a draft from before): go back to it.
      const result = v.safeParse(stepperSchema, form.values);
      if (!result.success) {
        const earlier = stepOfFields(form.values.type, Object.keys(issuesToErrors(result.issues).fields));
        if (earlier && earlier !== 'final') {
          goTo(earlier);
          form.validate(STEP_FIELDS[earlier]);
          return;
        }
      }
      await form.handleSubmit();
      return;
    }
    if (!form.validate(STEP_FIELDS[step])) return;
    if (step === 'username') {
      setChecking(true);
      const answer = await usernameAnswer(form.values.username).finally(() => setChecking(false));
      if (!answer.available) {
        form.setFieldError('username', answer.message);
        document.getElementById(form.fieldId('username'))?.focus();
        return;
      }
    }
    goTo(nextStep(form.values.type, step));
  };

  const { heading, lead } = headings[step];
  return (
    <AuthShell
      title="Create account"
      heading={heading}
      lead={lead}
      headingRef={headingRef}
      progress={<Progress {...progressOf(form.values.type, step)} />}
    >
      <Form form={form} aria-label="Create account" onSubmit={() => void continueFrom()}>
        {step === 'type' && <ChoiceField form={form} name="type" label="I want to" options={typeChoices} />}
        {step === 'username' && <UsernameField form={form} />}
        {step === 'sex' && <ChoiceField form={form} name="gender" label="I am" options={sexChoices} />}
        {step === 'final' && <FinalFields form={form} />}
        <SubmitButton form={form} busy={checking}>
          {step === 'final' ? 'Create account' : 'Continue'}
        </SubmitButton>
      </Form>
      {step === firstStep(fixedType) && <SwitchLinks fixedType={fixedType} />}
    </AuthShell>
  );
}

function Progress({ number, total }: { number: number; total: number | null }) {
  return (
    <div className="auth-progress">
      <p className="visually-hidden">{total === null ? `Step ${number}` : `Step ${number} of ${total}`}</p>
      <ol className="auth-progress-bar" aria-hidden="true">
        {total === null ? (
          // How many steps follow depends on the choice: one open track rather than a count.
          <>
            <li className="is-done" />
            <li className="is-rest" />
          </>
        ) : (
          Array.from({ length: total }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the bar's segments are its positions.
            <li key={i} className={i < number ? 'is-done' : undefined} />
          ))
        )}
      </ol>
    </div>
  );
}

function SwitchLinks({ fixedType }: { fixedType: SignupType | undefined }) {
  return (
    <>
      {fixedType === 'user' && (
        <AuthFooter>
          Are you a creator? <Link to="/register/model">Sign up to post videos</Link>
        </AuthFooter>
      )}
      {fixedType === 'model' && (
        <AuthFooter>
          Just here to watch? <Link to="/register/user">Create a viewer account</Link>
        </AuthFooter>
      )}
      <AuthFooter>
        Already have an account? <Link to="/login">Log in</Link>
      </AuthFooter>
    </>
  );
}

/** The availability answer for a username, in the words the field shows (spec §5, §8). */
async function usernameAnswer(
  username: string,
  signal?: AbortSignal,
): Promise<{ available: boolean; message: string }> {
  try {
    const answer = await checkUsername(username.trim(), signal);
    return {
      available: answer.available,
      message: answer.available ? answer.message : answer.message || m.usernameTaken,
    };
  } catch (error) {
    if (isAbort(error) || signal?.aborted) throw error;
    const refused = error instanceof ApiError ? error.errors?.username?.[0] : undefined;
    return { available: false, message: refused ?? m.usernameCheckFailed };
  }
}

/** How long typing must pause before the username is checked on the server. */
const CHECK_DEBOUNCE_MS = 400;

/**
 * The username, checked as it is typed: the contract's rule at once, then (after a pause) whether the server
 * has it free. The answer shows under the field and is announced.
 */
function UsernameField({ form }: { form: FormApi<RegisterValues> }) {
  const username = form.values.username;
  const [available, setAvailable] = useState<{ name: string; message: string } | null>(null);
  const [pending, setPending] = useState(false);
  const { setFieldError } = form;

  useEffect(() => {
    const name = username.trim();
    setAvailable(null);
    if (name === '') {
      setPending(false);
      return;
    }
    const local = v.safeParse(usernameSchema, name);
    if (!local.success) {
      setPending(false);
      setFieldError('username', local.issues[0]?.message);
      return;
    }
    setFieldError('username', undefined);
    setPending(true);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      usernameAnswer(name, controller.signal).then(
        (answer) => {
          setPending(false);
          if (answer.available) setAvailable({ name, message: answer.message });
          else setFieldError('username', answer.message);
        },
        () => undefined,
      );
    }, CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [username, setFieldError]);

  const error = form.errors.username;
  const good = available !== null && available.name === username.trim() && !error;
  const host = typeof window === 'undefined' ? '' : window.location.host;
  const hint = pending
    ? 'Checking availability…'
    : good
      ? available.message
      : `Letters, numbers, - and _. Your profile: ${host}/${username.trim() || 'username'}`;
  return (
    <>
      <TextField
        form={form}
        name="username"
        label="Username"
        autoComplete="username"
        autoCapitalize="off"
        maxLength={32}
        hint={hint}
        hintTone={good ? 'good' : undefined}
      />
      <p className="visually-hidden" role="status">
        {pending ? '' : (error ?? (good ? available.message : ''))}
      </p>
    </>
  );
}

/** The last step: who the account is for and how to sign in; creators add country, phone and the terms. */
function FinalFields({ form }: { form: FormApi<RegisterValues> }) {
  const creator = form.values.type === 'model';
  return (
    <>
      <TextField
        form={form}
        name="name"
        label="Display name"
        autoComplete={creator ? 'nickname' : 'name'}
        maxLength={80}
      />
      {creator && <CountryField form={form} />}
      {creator && (
        <TextField
          form={form}
          name="phone_number"
          label="Phone number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={32}
        />
      )}
      <TextField form={form} name="email" label="Email" type="email" autoComplete="email" maxLength={254} />
      <PasswordField
        form={form}
        name="password"
        label="Password"
        autoComplete="new-password"
        hint="At least 8 characters."
      />
      <PasswordField
        form={form}
        name="password_confirmation"
        label="Repeat password"
        autoComplete="new-password"
      />
      {creator && (
        <CheckboxField
          form={form}
          name="terms"
          label={
            <>
              I agree to the{' '}
              <a href="/page/terms" target="_blank" rel="noopener">
                Terms &amp; Conditions
              </a>
            </>
          }
        />
      )}
    </>
  );
}

/** Countries from the server's own list (the one it checks against), loaded with the step. */
function CountryField({ form }: { form: FormApi<RegisterValues> }) {
  const countries = useRequest('countries', () => fetchCountries());
  const options =
    countries.status === 'success' ? countries.data.map((c) => ({ value: c.code, label: c.name })) : [];
  return (
    <div className="auth-country">
      <SelectField
        form={form}
        name="country"
        label="Country"
        autoComplete="country"
        placeholder={countries.status === 'loading' ? 'Loading countries…' : 'Select your country'}
        options={options}
        hint={
          countries.status === 'error' ? (
            <>
              The list of countries did not load.{' '}
              <button type="button" className="auth-inline-button" onClick={countries.retry}>
                Try again
              </button>
            </>
          ) : undefined
        }
      />
    </div>
  );
}
