// The sign-up stepper's rules (spec §2/§4 'Register'), apart from any screen so they can be tested alone.
import * as v from 'valibot';
import { registerSchema } from '../../contract';

export type Step = 'type' | 'username' | 'sex' | 'final' | 'verify';
/** The steps with fields; 'verify' only shows where the mail went. */
export type FormStep = Exclude<Step, 'verify'>;
/** The two kinds of account the stepper creates (the spec's /register/{type}). */
export type SignupType = 'user' | 'model';

export const isSignupType = (value: unknown): value is SignupType => value === 'user' || value === 'model';

/** Models: type, username, sex, final, verify. Users (and a type not chosen yet): type, final, verify. */
export function stepsFor(type: string): Step[] {
  return type === 'model' ? ['type', 'username', 'sex', 'final', 'verify'] : ['type', 'final', 'verify'];
}

/** /register/model and /register/user start past the type step; /register starts with it. */
export function firstStep(fixedType: SignupType | undefined): FormStep {
  return fixedType ? (stepsFor(fixedType)[1] as FormStep) : 'type';
}

/**
 * The step on show: the one the history entry names, if this type's flow has it and does not start after
 * it; otherwise the first (a reload before the draft is read, or a type changed since).
 */
export function currentStep(type: string, fixedType: SignupType | undefined, wanted: unknown): FormStep {
  const steps = stepsFor(type);
  const first = firstStep(fixedType);
  const index = steps.indexOf(wanted as Step);
  return index >= steps.indexOf(first) && wanted !== 'verify' ? (wanted as FormStep) : first;
}

/** The step after `step` in this type's flow ('final' is followed by the verify step once sent). */
export function nextStep(type: string, step: Step): Step {
  const steps = stepsFor(type);
  return steps[steps.indexOf(step) + 1] ?? 'verify';
}

/**
 * Where the progress bar stands. The type choice is step 1 of every flow, wherever it was made: a model
 * counts 4 steps and a viewer 2, from /register as from /register/{type}, whose link made that choice (it
 * opens on step 2, step 1 done). Until a type is chosen the length of the flow is unknown: `total` is null.
 */
export function progressOf(type: string, step: FormStep): { number: number; total: number | null } {
  const steps = stepsFor(type).filter((s) => s !== 'verify');
  return { number: steps.indexOf(step) + 1, total: isSignupType(type) ? steps.length : null };
}

/** What each form step asks for: its Continue checks these fields only. */
export const STEP_FIELDS = {
  type: ['type'],
  username: ['username'],
  sex: ['gender'],
  final: ['name', 'country', 'phone_number', 'email', 'password', 'password_confirmation', 'terms'],
  verify: [],
} as const satisfies Record<Step, readonly (keyof RegisterValues)[]>;

/** The stepper's fields as typed; hidden steps keep what they held. */
export type RegisterValues = {
  type: string;
  username: string;
  gender: string;
  name: string;
  country: string;
  phone_number: string;
  email: string;
  password: string;
  password_confirmation: string;
  terms: boolean;
};

export const emptyRegisterValues = (type: SignupType | undefined): RegisterValues => ({
  type: type ?? '',
  username: '',
  gender: '',
  name: '',
  country: '',
  phone_number: '',
  email: '',
  password: '',
  password_confirmation: '',
  terms: false,
});

/**
 * The payload of what a person saw: a viewer never passed the username, sex, country, phone or terms steps,
 * so nothing typed there earlier (before switching to 'Watch videos') is sent or checked.
 */
export function payloadOf(values: RegisterValues): Record<string, unknown> {
  const common = {
    type: values.type,
    name: values.name,
    email: values.email,
    password: values.password,
    password_confirmation: values.password_confirmation,
  };
  if (values.type !== 'model') return common;
  return {
    ...common,
    username: values.username,
    gender: values.gender,
    country: values.country,
    phone_number: values.phone_number,
    terms: values.terms,
  };
}

/** The contract's registration schema, over what the stepper shows for the chosen type. */
export const stepperSchema = v.pipe(
  v.unknown(),
  v.transform((values) => payloadOf(values as RegisterValues)),
  registerSchema,
);

/** The first step (in flow order) with a field the server or the schema refused: where to send the person. */
export function stepOfFields(type: string, fields: readonly string[]): Step | undefined {
  return stepsFor(type).find((step) =>
    (STEP_FIELDS[step] as readonly string[]).some((field) => fields.includes(field)),
  );
}
