import type { fetchCountries } from '../../api/geo';
import type { useRequest } from '../../api/useRequest';
import { MIN_AGE } from '../../contract';
import { ChoiceField, DateField, type FormApi, SelectField, TextField } from '../../ui/form';
import { ImageField } from '../../ui/form/ImageField';
import { SignatureField } from '../../ui/form/SignatureField';
import type { WizardValues } from './wizardValues';

type Form = FormApi<WizardValues>;
type Countries = ReturnType<typeof useRequest<Awaited<ReturnType<typeof fetchCountries>>>>;

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

/** Step 1: the person as the document names them. */
export function PersonalStep({ form, countries }: { form: Form; countries: Countries }) {
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
  );
}

/** Step 2: the document and its three photos. */
export function DocumentStep({ form }: { form: Form }) {
  return (
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
      <ImageField form={form} name="back_picture_id" label="Back of the document" capture="environment" />
      <ImageField
        form={form}
        name="face_picture_id"
        label="Your face, holding the document"
        capture="user"
        hint="Your face and the document's photo, both clearly visible."
      />
    </>
  );
}

/** Step 3: the declaration, signed on the pad. */
export function DeclarationStep({ form }: { form: Form }) {
  return (
    <>
      <div className="verify-declaration">
        <p>
          I, <strong>{form.values.legal_name || 'the undersigned'}</strong>, declare that I am at least{' '}
          {MIN_AGE} years old, that the information and documents I have given are true and my own, and that I
          appear in my content of my own free will.
        </p>
        <p>
          I agree that ShortCams keeps these documents, never shown to anyone, for as long as the law
          requires, to prove my age and identity.
        </p>
      </div>
      <SignatureField form={form} name="signature" strokesName="signature_strokes" label="Signature" />
    </>
  );
}
