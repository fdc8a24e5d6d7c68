import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
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
import { Form, SubmitButton, useForm } from '../../ui/form';
import { AlertIcon } from '../../ui/more-icons';
import { STEPS, Stepper } from './Stepper';
import { useStepFocus } from './useStepFocus';
import { DeclarationStep, DocumentStep, PersonalStep } from './WizardSteps';
import { stepFields, type WizardValues } from './wizardValues';

const m = messages.verification;

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
      markSend();
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
  const { heading, go, markSend } = useStepFocus(form, step);

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

  const onSubmit = () => {
    if (step < 3) {
      if (form.validate(stepFields[step - 1])) go(step + 1);
      return;
    }
    markSend();
    void form.handleSubmit();
  };

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
        {step === 1 && <PersonalStep form={form} countries={countries} />}
        {step === 2 && <DocumentStep form={form} />}
        {step === 3 && <DeclarationStep form={form} />}
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
