import { useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { fetchCountries } from '../../api/geo';
import { ApiError } from '../../api/http';
import { useRequest } from '../../api/useRequest';
import { submitVerification } from '../../api/verification';
import {
  ageOn,
  MIN_AGE,
  messages,
  type OwnProfile,
  verificationImageFields,
  verificationSchema,
} from '../../contract';
import { showToastAtom } from '../../state/toast';
import { ChoiceField, DateField, Form, SelectField, SubmitButton, TextField, useForm } from '../../ui/form';
import { ImageField } from '../../ui/form/ImageField';
import { SignatureField, type SignatureStrokes } from '../../ui/form/SignatureField';
import { AlertIcon } from '../../ui/more-icons';

const m = messages.verification;

export type WizardValues = {
  step: number;
  legal_name: string;
  stage_name: string;
  address: string;
  country: string;
  gender: string;
  date_of_birth: string;
  age: string;
  identification: string;
  identification_id: string;
  front_picture_id: Blob | null;
  back_picture_id: Blob | null;
  face_picture_id: Blob | null;
  signature: Blob | null;
  signature_strokes: SignatureStrokes | null;
};

type Field = keyof WizardValues & string;

export const STEPS = ['Personal data', 'Identity document', 'Declaration', 'Sent'] as const;

/** The fields each step shows, so that Continue checks them and a server message finds its step. */
const stepFields: readonly (readonly Field[])[] = [
  ['legal_name', 'stage_name', 'address', 'country', 'gender', 'date_of_birth', 'age'],
  ['identification', 'identification_id', 'front_picture_id', 'back_picture_id', 'face_picture_id'],
  ['signature'],
];
const stepOf = (field: string) => stepFields.findIndex((fields) => fields.includes(field as Field)) + 1;

const textFields = [
  'legal_name',
  'stage_name',
  'address',
  'country',
  'gender',
  'date_of_birth',
  'identification',
  'identification_id',
] as const;

/** Spec §2: the picker's latest birthday is 18 years ago, with 2 days of slack for time zones. */
function latestBirthday(now = new Date()): string {
  const d = new Date(Date.UTC(now.getFullYear() - MIN_AGE, now.getMonth(), now.getDate() + 2));
  return d.toISOString().slice(0, 10);
}

const genderOptions = [
  { value: 'm', label: 'Male' },
  { value: 't', label: 'Trans' },
];
const idOptions = [
  { value: 'driver', label: "Driver's license", description: 'Front and back' },
  { value: 'passport', label: 'Passport', description: 'The photo page, then the page with your signature' },
  { value: 'idcard', label: 'ID card', description: 'Front and back' },
];

export function Stepper({ step }: { step: number }) {
  return (
    <div className="stepper">
      <p className="stepper-label">
        Step {step} of {STEPS.length} · <strong>{STEPS[step - 1]}</strong>
      </p>
      <ol className="stepper-bar" aria-label="Steps">
        {STEPS.map((title, i) => (
          <li
            key={title}
            className={i + 1 < step ? 'is-done' : i + 1 === step ? 'is-current' : ''}
            aria-current={i + 1 === step ? 'step' : undefined}
          >
            <span className="visually-hidden">{title}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/**
 * The four-step wizard of spec §2 on the form kit, over the contract's verificationSchema: personal data; the
 * document and its three photos; the declaration signed on the pad; sent. What is typed, picked and drawn is
 * kept on the device (the kit's draft, structured clone: Files and Blobs too) until the request is sent.
 */
export function ValidationWizard({
  profile,
  rejected,
  onSent,
  onStale,
}: {
  profile: OwnProfile;
  rejected: boolean;
  onSent: () => void;
  /** The server says the status moved on (already pending or approved): look again. */
  onStale: () => void;
}) {
  const showToast = useSetAtom(showToastAtom);
  const countries = useRequest('countries', () => fetchCountries());
  /** After a failed send: go to the earliest step with a message. */
  const jumpToErrors = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const [focusRequest, setFocusRequest] = useState<'heading' | 'error' | null>(null);

  const form = useForm({
    schema: verificationSchema,
    initial: {
      step: 1,
      legal_name: '',
      stage_name: profile.name,
      address: '',
      country: profile.country ?? '',
      // Asked, not taken from the account: it is what the document says that counts here.
      gender: '',
      date_of_birth: '',
      age: String(MIN_AGE),
      identification: '',
      identification_id: '',
      front_picture_id: null,
      back_picture_id: null,
      face_picture_id: null,
      signature: null,
      signature_strokes: null,
    } as WizardValues,
    draft: { key: 'verification' },
    errorTexts: { network: m.submitFailed, answered: m.failed },
    onError: (error) => {
      jumpToErrors.current = true;
      if (error instanceof ApiError && error.status === 422) showToast(m.validationError, { tone: 'error' });
      if (error instanceof ApiError && error.status === 409) onStale();
    },
    onSubmit: async (output, values) => {
      const body = new FormData();
      for (const field of textFields) body.append(field, String(output[field]));
      body.append('age', String(output.age));
      for (const field of verificationImageFields) {
        const blob = values[field];
        if (!(blob instanceof Blob)) continue;
        body.append(field, blob, blob instanceof File && blob.name ? blob.name : `${field}.png`);
      }
      await submitVerification(body);
      onSent();
    },
  });
  const step = Math.min(Math.max(Number(form.values.step) || 1, 1), 3);

  // A birthday fills in the age (still editable): the two must agree, and the date is what counts.
  const birthday = form.values.date_of_birth;
  const { setValue } = form;
  useEffect(() => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(birthday)) return;
    // Today as the person's own calendar has it (ageOn reads the UTC fields of the date it is given).
    const now = new Date();
    const age = ageOn(birthday, new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())));
    if (age > 0 && age < 130) setValue('age', String(age));
  }, [birthday, setValue]);

  // A failed send whose messages sit on an earlier step goes back to it.
  useEffect(() => {
    if (!jumpToErrors.current) return;
    const withError = Object.keys(form.errors).filter((key) => form.errors[key as Field]);
    if (withError.length === 0) return;
    jumpToErrors.current = false;
    const first = Math.min(...withError.map(stepOf).filter((n) => n > 0));
    if (Number.isFinite(first) && first !== step) form.setValue('step', first);
    setFocusRequest('error');
  }, [form.errors, form, step]);

  useEffect(() => {
    if (!focusRequest) return;
    setFocusRequest(null);
    if (focusRequest === 'heading') {
      window.scrollTo({ top: 0 });
      heading.current?.focus();
      return;
    }
    const first = (stepFields[step - 1] ?? []).find((field) => form.errors[field]);
    if (first) document.getElementById(form.fieldId(first))?.focus();
  }, [focusRequest, step, form]);

  const go = (next: number) => {
    form.setValue('step', next);
    setFocusRequest('heading');
  };

  const onSubmit = () => {
    if (step < 3) {
      if (form.validate(stepFields[step - 1])) go(step + 1);
      return;
    }
    jumpToErrors.current = true;
    void form.handleSubmit();
  };

  const countryOptions =
    countries.status === 'success' ? countries.data.map((c) => ({ value: c.code, label: c.name })) : [];
  const countryHint =
    countries.status === 'error' ? (
      <>
        The list of countries did not load.{' '}
        <button type="button" className="link-button" onClick={countries.retry}>
          Try again
        </button>
      </>
    ) : countries.status === 'loading' ? (
      'Loading countries…'
    ) : undefined;

  return (
    <>
      {rejected && (
        <p className="verify-note" role="note">
          <AlertIcon aria-hidden="true" />
          <span>
            {messages.upload.verificationRejected}
            {/* The operator's reason, also mailed: what to do differently this time. */}
            {profile.verificationNote && (
              <span className="verify-note-reason">Why: {profile.verificationNote}</span>
            )}
          </span>
        </p>
      )}
      <Stepper step={step} />
      <Form form={form} onSubmit={onSubmit} aria-label="Account validation" className="verify-form">
        <h2 ref={heading} tabIndex={-1} className="verify-step-title">
          {STEPS[step - 1]}
        </h2>
        {step === 1 && (
          <>
            <p className="screen-lead">As they appear on your identity document.</p>
            <TextField form={form} name="legal_name" label="Full legal name" autoComplete="name" />
            <TextField
              form={form}
              name="stage_name"
              label="Stage name"
              hint="The name you perform under."
              autoComplete="nickname"
            />
            <TextField form={form} name="address" label="Address" autoComplete="street-address" />
            <SelectField
              form={form}
              name="country"
              label="Country"
              placeholder="Select"
              options={countryOptions}
              hint={countryHint}
              autoComplete="country"
            />
            <ChoiceField form={form} name="gender" label="Gender" options={genderOptions} variant="list" />
            <div className="verify-row">
              <DateField
                form={form}
                name="date_of_birth"
                label="Birthday"
                min="1900-01-01"
                max={latestBirthday()}
                className="verify-birthday"
              />
              <TextField
                form={form}
                name="age"
                label="Age"
                inputMode="numeric"
                maxLength={3}
                className="verify-age"
              />
            </div>
          </>
        )}
        {step === 2 && (
          <>
            <ChoiceField form={form} name="identification" label="Type of document" options={idOptions} />
            <TextField form={form} name="identification_id" label="Document number" autoComplete="off" />
            <ImageField
              form={form}
              name="front_picture_id"
              label="Front of the document"
              capture="environment"
              hint="PNG or JPEG, up to 16 MB. All four corners in the picture."
            />
            <ImageField
              form={form}
              name="back_picture_id"
              label="Back of the document"
              capture="environment"
            />
            <ImageField
              form={form}
              name="face_picture_id"
              label="Your face, holding the document"
              capture="user"
              hint="Your face and the document's photo, both clearly visible."
            />
          </>
        )}
        {step === 3 && (
          <>
            <div className="verify-declaration">
              <p>
                I, <strong>{form.values.legal_name || 'the undersigned'}</strong>, declare that I am at least{' '}
                {MIN_AGE} years old, that the information and documents I have given are true and my own, and
                that I appear in my content of my own free will.
              </p>
              <p>
                I agree that ShortCams keeps these documents, never shown to anyone, for as long as the law
                requires, to prove my age and identity.
              </p>
            </div>
            <SignatureField form={form} name="signature" strokesName="signature_strokes" label="Signature" />
          </>
        )}
        <div className="verify-actions">
          {step > 1 && (
            <button type="button" className="btn btn-ghost" onClick={() => go(step - 1)}>
              Back
            </button>
          )}
          {step < 3 ? (
            <button type="submit" className="btn btn-primary">
              Continue
            </button>
          ) : (
            <SubmitButton form={form} className="verify-send">
              Send for review
            </SubmitButton>
          )}
        </div>
      </Form>
    </>
  );
}
