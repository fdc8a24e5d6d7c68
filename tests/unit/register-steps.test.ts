// The sign-up stepper's rules (src/features/auth/steps.ts): which steps each account type goes through,
// where /register/{type} starts, and what the stepper sends and checks for what a person saw.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/contract';
import {
  currentStep,
  emptyRegisterValues,
  firstStep,
  nextStep,
  payloadOf,
  progressOf,
  type RegisterValues,
  stepOfFields,
  stepperSchema,
  stepsFor,
} from '../../src/features/auth/steps';
import { issuesToErrors } from '../../src/ui/form';

const m = messages.auth;

const filled = (over: Partial<RegisterValues> = {}): RegisterValues => ({
  ...emptyRegisterValues(undefined),
  name: 'Nova',
  email: 'nova@example.test',
  password: 'long-enough-1',
  password_confirmation: 'long-enough-1',
  ...over,
});

describe('sign-up steps', () => {
  it('lists type, username, sex, final, verify for models and type, final, verify for users', () => {
    expect(stepsFor('model')).toEqual(['type', 'username', 'sex', 'final', 'verify']);
    expect(stepsFor('user')).toEqual(['type', 'final', 'verify']);
    // Before a type is chosen the flow is the short one; choosing 'Post videos' lengthens it.
    expect(stepsFor('')).toEqual(['type', 'final', 'verify']);
  });

  it('starts /register with the type step and /register/{type} past it', () => {
    expect(firstStep(undefined)).toBe('type');
    expect(firstStep('model')).toBe('username');
    expect(firstStep('user')).toBe('final');
  });

  it('moves on in the order of the flow', () => {
    expect(nextStep('model', 'type')).toBe('username');
    expect(nextStep('model', 'username')).toBe('sex');
    expect(nextStep('model', 'sex')).toBe('final');
    expect(nextStep('model', 'final')).toBe('verify');
    expect(nextStep('user', 'type')).toBe('final');
  });

  it('shows the step a history entry names only where the flow has it', () => {
    expect(currentStep('model', undefined, 'sex')).toBe('sex');
    // A viewer has no sex step (the type was changed since, or the draft is not read yet).
    expect(currentStep('user', undefined, 'sex')).toBe('type');
    // /register/model never goes back before its first step.
    expect(currentStep('model', 'model', 'type')).toBe('username');
    expect(currentStep('user', 'user', undefined)).toBe('final');
    // The verify step needs the address it was sent to: never entered from a bare name.
    expect(currentStep('model', undefined, 'verify')).toBe('type');
    expect(currentStep('model', undefined, 'nonsense')).toBe('type');
  });

  it('counts the same steps whether the type was chosen on /register or by the /register/{type} link', () => {
    // A creator: 4 steps, the type choice first, wherever it was made.
    const fromRegister = ['type', 'username', 'sex', 'final'] as const;
    expect(fromRegister.map((step) => progressOf('model', step))).toEqual([
      { number: 1, total: 4 },
      { number: 2, total: 4 },
      { number: 3, total: 4 },
      { number: 4, total: 4 },
    ]);
    // /register/model opens on its first step with the same number and total as /register's way there.
    expect(progressOf('model', firstStep('model'))).toEqual({ number: 2, total: 4 });
    // A viewer: 2 steps either way.
    expect(progressOf('user', 'type')).toEqual({ number: 1, total: 2 });
    expect(progressOf('user', firstStep('user'))).toEqual({ number: 2, total: 2 });
    // Before a type is chosen the length of the flow is not known: no total to mislead.
    expect(progressOf('', 'type')).toEqual({ number: 1, total: null });
  });

  it('finds the first step holding a refused field', () => {
    expect(stepOfFields('model', ['email', 'username'])).toBe('username');
    expect(stepOfFields('model', ['gender'])).toBe('sex');
    expect(stepOfFields('user', ['password_confirmation'])).toBe('final');
    expect(stepOfFields('user', ['unknown'])).toBeUndefined();
  });
});

describe('what the stepper sends', () => {
  it("sends a viewer's fields only, even if creator fields were typed before switching", () => {
    const values = filled({ type: 'user', username: 'typed_before', gender: 't', phone_number: '12345' });
    expect(payloadOf(values)).toEqual({
      type: 'user',
      name: 'Nova',
      email: 'nova@example.test',
      password: 'long-enough-1',
      password_confirmation: 'long-enough-1',
    });
    const result = v.safeParse(stepperSchema, values);
    expect(result.success).toBe(true);
    expect(result.output).toMatchObject({ type: 'user', gender: 'm' });
    expect(result.output).not.toHaveProperty('username');
  });

  it("checks a model's username, sex, country, phone and terms with the contract's messages", () => {
    const result = v.safeParse(stepperSchema, filled({ type: 'model' }));
    expect(result.success).toBe(false);
    // The first message of each field, as the form kit shows it.
    expect(issuesToErrors(result.issues ?? []).fields).toMatchObject({
      username: m.usernameRequired,
      gender: m.invalidGender,
      country: m.countryRequired,
      phone_number: m.phoneRequired,
      terms: m.termsRequired,
    });
    const ok = v.safeParse(
      stepperSchema,
      filled({
        type: 'model',
        username: 'nova_cam',
        gender: 't',
        country: 'DE',
        phone_number: '+49 151 000',
        terms: true,
      }),
    );
    expect(ok.success).toBe(true);
    expect(ok.output).toMatchObject({ type: 'model', username: 'nova_cam', gender: 't', terms: true });
  });
});
