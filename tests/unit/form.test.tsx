// The form kit (src/ui/form) and the error texts (src/api/errors.ts) through real React renders in happy-dom,
// with the contract's own schemas: what a person typing into a form sees.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorText, firstFieldError } from '../../src/api/errors';
import { ApiError } from '../../src/api/http';
import { loginSchema, messages, profilePasswordSchema, registerSchema } from '../../src/contract';
import { resetDraftStoreForTests } from '../../src/offline/drafts';
import { signIn } from '../../src/state/auth';
import {
  ChipsField,
  Form,
  PasswordField,
  SubmitButton,
  TextField,
  type UseFormOptions,
  useForm,
} from '../../src/ui/form';

beforeEach(() => {
  resetDraftStoreForTests();
  localStorage.clear();
  sessionStorage.clear();
});

type LoginValues = { email: string; password: string };

function LoginForm(props: Partial<UseFormOptions<typeof loginSchema, LoginValues>>) {
  const form = useForm({
    schema: loginSchema,
    initial: { email: '', password: '' },
    onSubmit: async () => undefined,
    ...props,
  });
  return (
    <Form form={form} aria-label="Login">
      <TextField form={form} name="email" label="Email" type="email" />
      <PasswordField form={form} name="password" label="Password" />
      <SubmitButton form={form}>Log in</SubmitButton>
    </Form>
  );
}

const submit = (name = 'Log in') => act(async () => fireEvent.click(screen.getByRole('button', { name })));
const type = (label: string, value: string) =>
  act(async () => fireEvent.change(screen.getByLabelText(label), { target: { value } }));

describe('form kit', () => {
  it("shows the contract's message under its field on submit, ties it to the input and focuses the first", async () => {
    let sent = 0;
    render(<LoginForm onSubmit={() => void sent++} />);
    await type('Email', 'has space@example.com');
    await submit();
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(email.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe(messages.auth.loginEmailSpaces);
    expect(described?.closest('.field')?.contains(email)).toBe(true);
    expect(document.activeElement).toBe(email);
    expect(sent).toBe(0);
  });

  it('shows a message about the whole form once, in its alert, and marks every field it is about', async () => {
    render(<LoginForm />);
    await submit();
    // 'Please fill in all fields.' names no field: one alert, not one line under each field.
    expect(screen.getAllByText(messages.auth.loginFillAll)).toHaveLength(1);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(messages.auth.loginFillAll);
    for (const label of ['Email', 'Password']) {
      const input = screen.getByLabelText(label);
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(input.closest('.field')?.classList.contains('has-error')).toBe(true);
      // Each empty field points to the one alert that explains it.
      expect(input.getAttribute('aria-describedby')?.split(' ')).toContain(alert.id);
    }
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    // One field filled: the same words stay where they were, on the form, and the filled field is clear.
    await type('Email', 'luna@example.com');
    expect(screen.getAllByText(messages.auth.loginFillAll)).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe(messages.auth.loginFillAll);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    await type('Password', 'secret-password');
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('shows one message several fields carry at once a single time', async () => {
    const schema = v.object({
      city: v.pipe(v.string(), v.nonEmpty('Required.')),
      street: v.pipe(v.string(), v.nonEmpty('Required.')),
    });
    function Address() {
      const form = useForm({ schema, initial: { city: '', street: '' }, onSubmit: () => undefined });
      return (
        <Form form={form}>
          <TextField form={form} name="city" label="City" />
          <TextField form={form} name="street" label="Street" />
          <SubmitButton form={form}>Save</SubmitButton>
        </Form>
      );
    }
    render(<Address />);
    await submit('Save');
    expect(screen.getAllByText('Required.')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toBe('Required.');
    expect(screen.getByLabelText('Street').getAttribute('aria-invalid')).toBe('true');
  });

  it('lets the messages follow the typing after a first attempt, and sends the parsed payload', async () => {
    let payload: unknown;
    render(
      <LoginForm
        onSubmit={(output) => {
          payload = output;
        }}
      />,
    );
    await submit();
    await type('Email', 'Has Space@example.com');
    expect(screen.getByText(messages.auth.loginEmailSpaces)).toBeTruthy();
    await type('Email', 'Luna@Example.com');
    expect(screen.queryByText(messages.auth.loginEmailSpaces)).toBeNull();
    await type('Password', 'secret-password');
    await submit();
    // The schema's output: the email lower-cased, remember_me defaulted.
    expect(payload).toEqual({ email: 'luna@example.com', password: 'secret-password', remember_me: false });
  });

  it("puts a server 422's messages on their fields, and one for a field the form lacks on the form", async () => {
    render(
      <LoginForm
        onSubmit={() => {
          throw new ApiError(
            422,
            'The given data was invalid.',
            { email: ['This email address is already registered.'], token: ['Expired.'] },
            { fromServer: true },
          );
        }}
      />,
    );
    await type('Email', 'luna@example.com');
    await type('Password', 'secret-password');
    await submit();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('This email address is already registered.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Expired.');
    // The server's message stays while another field changes, and goes once its own field is edited.
    await type('Password', 'secret-password-2');
    expect(screen.getByText('This email address is already registered.')).toBeTruthy();
    await type('Email', 'luna2@example.com');
    expect(screen.queryByText('This email address is already registered.')).toBeNull();
  });

  it('turns any other failure into the words the screen chose, through errors.ts', async () => {
    let failure: unknown = new ApiError(0, messages.network);
    render(
      <LoginForm
        errorTexts={{ network: messages.auth.invalidCredentials, status: { 429: 'Slow down.' } }}
        onSubmit={() => {
          throw failure;
        }}
      />,
    );
    await type('Email', 'luna@example.com');
    await type('Password', 'secret-password');
    await submit();
    expect(screen.getByRole('alert').textContent).toBe(messages.auth.invalidCredentials);
    failure = new ApiError(429, 'Too Many Requests', undefined, { fromServer: true });
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('Slow down.');
    failure = new ApiError(401, 'Invalid credentials', undefined, { fromServer: true });
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('Invalid credentials');
  });

  it('disables the button with a spinner while sending, and never sends twice', async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    render(
      <LoginForm
        onSubmit={() => {
          calls++;
          return new Promise<void>((resolve) => {
            release = resolve;
          });
        }}
      />,
    );
    await type('Email', 'luna@example.com');
    await type('Password', 'secret-password');
    await submit();
    const button = screen.getByRole('button', { name: 'Log in' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    await submit();
    expect(calls).toBe(1);
    await act(async () => release());
    expect(button.disabled).toBe(false);
  });

  it('checks a cross-field rule of the contract (passwords must match) on the field it names', async () => {
    function PasswordForm() {
      const form = useForm({
        schema: profilePasswordSchema,
        initial: { password: '', password_confirmation: '' },
        onSubmit: () => undefined,
      });
      return (
        <Form form={form}>
          <PasswordField form={form} name="password" label="New password" autoComplete="new-password" />
          <PasswordField form={form} name="password_confirmation" label="Repeat password" />
          <SubmitButton form={form}>Save</SubmitButton>
        </Form>
      );
    }
    render(<PasswordForm />);
    await type('New password', 'short');
    await type('Repeat password', 'other');
    await submit('Save');
    expect(screen.getByText(messages.profile.newPasswordTooShort)).toBeTruthy();
    await type('New password', 'long-enough-1');
    await type('Repeat password', 'long-enough-2');
    expect(screen.getByText(messages.profile.passwordsMustMatch)).toBeTruthy();
  });

  it("validates one step's fields only, for a stepper's Continue", async () => {
    let stepOk: boolean | undefined;
    function Stepper() {
      const form = useForm({
        schema: registerSchema,
        initial: { type: 'model', username: 'bad name!', name: '', email: '', password: '' },
        onSubmit: () => undefined,
      });
      return (
        <Form form={form}>
          <TextField form={form} name="username" label="Username" />
          <TextField form={form} name="name" label="Display name" />
          <button
            type="button"
            onClick={() => {
              stepOk = form.validate(['username']);
            }}
          >
            Continue
          </button>
        </Form>
      );
    }
    render(<Stepper />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Continue' })));
    expect(stepOk).toBe(false);
    expect(screen.getByText(messages.auth.usernameInvalid)).toBeTruthy();
    // Fields of later steps say nothing yet.
    expect(screen.queryByText(messages.auth.fillAllFields)).toBeNull();
    await type('Username', 'luna_vega');
    expect(screen.queryByText(messages.auth.usernameInvalid)).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Continue' })));
    expect(stepOk).toBe(true);
  });

  it('keeps a draft on the device across a remount, never the password, and forgets it once sent', async () => {
    const draft = { key: 'login-test', omit: ['password'] as const };
    const first = render(<LoginForm draft={draft} />);
    await type('Email', 'kept@example.com');
    await type('Password', 'not-kept-1');
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    first.unmount();

    const second = render(<LoginForm draft={draft} />);
    await waitFor(() =>
      expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('kept@example.com'),
    );
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    await type('Password', 'secret-password');
    await submit();
    second.unmount();

    render(<LoginForm draft={draft} />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('');
  });

  it('forgets the guest’s draft of a sign-in form once it has signed in', async () => {
    const draft = { key: 'login-signin-test', omit: ['password'] as const };
    const first = render(
      <LoginForm
        draft={draft}
        onSubmit={() => {
          signIn({ access_token: 'token-1', user: { id: 7, type: 'user' } }, true);
        }}
      />,
    );
    await type('Email', 'signs.in@example.com');
    await type('Password', 'secret-password');
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    await submit();
    expect(localStorage.getItem('shortcams.auth')).toContain('token-1');
    first.unmount();

    // Signed out again, the guest's login form starts empty.
    localStorage.clear();
    render(<LoginForm draft={draft} />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('');
  });

  it('fills an empty field with what is known from elsewhere, without beating or writing a draft', async () => {
    let api: { prefill: (patch: Partial<LoginValues>) => void } | undefined;
    function Support({ draftKey }: { draftKey: string }) {
      const form = useForm({
        schema: loginSchema,
        initial: { email: '', password: '' },
        draft: { key: draftKey },
        onSubmit: () => undefined,
      });
      api = form;
      return <TextField form={form} name="email" label="Email" />;
    }
    const email = () => (screen.getByLabelText('Email') as HTMLInputElement).value;
    // Known late (the account is read after the form opened): filled in, still the person's to change.
    const first = render(<Support draftKey="prefill-test" />);
    await act(async () => api?.prefill({ email: 'me@example.com' }));
    expect(email()).toBe('me@example.com');
    await type('Email', 'other@example.com');
    await act(async () => api?.prefill({ email: 'me@example.com' }));
    expect(email()).toBe('other@example.com');
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    first.unmount();
    // What was typed comes back from the draft and wins over what is known.
    const second = render(<Support draftKey="prefill-test" />);
    await act(async () => api?.prefill({ email: 'me@example.com' }));
    await waitFor(() => expect(email()).toBe('other@example.com'));
    second.unmount();
    // A draft whose field was left empty does not clear what was filled in.
    render(<Support draftKey="prefill-empty-test" />);
    await type('Email', 'x');
    await type('Email', '');
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    cleanup();
    render(<Support draftKey="prefill-empty-test" />);
    await act(async () => api?.prefill({ email: 'me@example.com' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(email()).toBe('me@example.com');
  });

  it('does not bring back a draft that was sent before its write settled', async () => {
    const draft = { key: 'quick-send-test', omit: ['password'] as const };
    const first = render(<LoginForm draft={draft} />);
    await type('Email', 'quick@example.com');
    await type('Password', 'secret-password');
    await submit();
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    first.unmount();
    render(<LoginForm draft={draft} />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('');
  });

  it('adds chips with Enter or a comma, and refuses one with the check’s message', async () => {
    const tagsSchema = v.object({ tags: v.array(v.string()) });
    function Tags() {
      const form = useForm({
        schema: tagsSchema,
        initial: { tags: [] as string[] },
        onSubmit: () => undefined,
      });
      return (
        <ChipsField
          form={form}
          name="tags"
          label="Tags"
          prefix="#"
          check={(tag, current) =>
            tag.length < 2
              ? messages.upload.tagTooShort
              : current.includes(tag)
                ? messages.upload.tagDuplicate
                : undefined
          }
        />
      );
    }
    render(<Tags />);
    const input = screen.getByLabelText('Tags');
    await act(async () => fireEvent.change(input, { target: { value: 'neon' } }));
    await act(async () => fireEvent.keyDown(input, { key: 'Enter' }));
    await act(async () => fireEvent.change(input, { target: { value: 'retro,x' } }));
    expect(screen.getByRole('button', { name: 'Remove #neon' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove #retro' })).toBeTruthy();
    await act(async () => fireEvent.keyDown(input, { key: 'Enter' }));
    expect(screen.getByText(messages.upload.tagTooShort)).toBeTruthy();
    await act(async () => fireEvent.change(input, { target: { value: 'neon' } }));
    await act(async () => fireEvent.keyDown(input, { key: ',' }));
    expect(screen.getByText(messages.upload.tagDuplicate)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove #neon' })));
    expect(screen.queryByRole('button', { name: 'Remove #neon' })).toBeNull();
  });
});

describe('form kit for steppers and live checks', () => {
  it("sets one field's message from outside the schema and leaves the others as they are", async () => {
    function Username() {
      const form = useForm({
        schema: registerSchema,
        initial: { type: 'model', username: '', name: '' },
        onSubmit: () => undefined,
      });
      return (
        <Form form={form}>
          <TextField form={form} name="username" label="Username" autoCapitalize="off" />
          <TextField form={form} name="name" label="Display name" />
          <button type="button" onClick={() => form.validate(['name'])}>
            Check name
          </button>
          <button type="button" onClick={() => form.setFieldError('username', messages.auth.usernameTaken)}>
            Taken
          </button>
          <button type="button" onClick={() => form.setFieldError('username', undefined)}>
            Free
          </button>
          <SubmitButton form={form}>Save</SubmitButton>
        </Form>
      );
    }
    render(<Username />);
    const click = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })));
    await click('Check name');
    await click('Taken');
    expect(screen.getByText(messages.auth.usernameTaken)).toBeTruthy();
    expect(screen.getByText(messages.auth.fillAllFields)).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Username').getAttribute('autocapitalize')).toBe('off');
    await click('Free');
    expect(screen.queryByText(messages.auth.usernameTaken)).toBeNull();
    expect(screen.getByText(messages.auth.fillAllFields)).toBeTruthy();
  });

  it("lets a form's own submit replace the send (a step's Continue), and shows a busy button", async () => {
    let sent = 0;
    let continued = 0;
    function Step({ busy }: { busy: boolean }) {
      const form = useForm({
        schema: loginSchema,
        initial: { email: '', password: '' },
        onSubmit: () => void sent++,
      });
      return (
        <Form form={form} onSubmit={() => void continued++}>
          <TextField form={form} name="email" label="Email" hint="We never share it." hintTone="good" />
          <SubmitButton form={form} busy={busy}>
            Continue
          </SubmitButton>
        </Form>
      );
    }
    const view = render(<Step busy={false} />);
    await submit('Continue');
    expect(continued).toBe(1);
    expect(sent).toBe(0);
    // No messages either: the step decides what to check.
    expect(screen.queryByText(messages.auth.loginFillAll)).toBeNull();
    expect(screen.getByText('We never share it.').className).toContain('is-good');
    view.rerender(<Step busy />);
    const button = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
  });
});

describe('error texts', () => {
  it('tries network, the named status, the screen’s shape, the server’s words, then the fallback', () => {
    const net = new ApiError(0, messages.network);
    const limited = new ApiError(429, 'Too many.', undefined, { fromServer: true });
    const said = new ApiError(409, 'Username is taken.', undefined, { fromServer: true });
    const unreadable = new ApiError(502, messages.server.internal);
    expect(errorText(net)).toBe('Network error.');
    expect(errorText(net, { network: 'Invalid credentials' })).toBe('Invalid credentials');
    expect(errorText(limited, { status: { 429: messages.contact.tooMany } })).toBe(messages.contact.tooMany);
    expect(errorText(said)).toBe('Username is taken.');
    expect(errorText(said, { serverMessage: false, fallback: 'Something else.' })).toBe('Something else.');
    expect(errorText(unreadable, { fallback: 'Could not send the report.' })).toBe(
      'Could not send the report.',
    );
    const shaped = { answered: (status: number, text?: string) => `${status}: ${text ?? 'Server error'}` };
    expect(errorText(said, shaped)).toBe('409: Username is taken.');
    expect(errorText(unreadable, shaped)).toBe('502: Server error');
    expect(errorText(new DOMException('full', 'QuotaExceededError'))).toBe(messages.storageFull);
    expect(errorText(new TypeError('x'))).toBe(messages.server.internal);
  });

  it('reads the first field message of a 422', () => {
    const error = new ApiError(422, 'The given data was invalid.', { video: ['The file is not a video.'] });
    expect(firstFieldError(error)).toBe('The file is not a video.');
    expect(firstFieldError(new Error('x'))).toBeUndefined();
  });
});
