import { useSetAtom } from 'jotai';
import * as v from 'valibot';
import { updateProfile } from '../../api/profile';
import { messages, type OwnProfile, profileDetailsSchema } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { Form, SubmitButton, TextAreaField, TextField, useForm } from '../../ui/form';
import { endSessionOn401, isCreator, SettingsPage, useBackToSettings } from './shared';

/** Spec §9: a description holds at most 200 characters. */
export const DESCRIPTION_MAX = 200;

type DetailsValues = { name: string; username: string; phone_number: string; description: string };

const valuesOf = (profile: OwnProfile): DetailsValues => ({
  name: profile.name,
  username: profile.username,
  phone_number: profile.phone_number ?? '',
  description: profile.description ?? '',
});

const { name, username, description, phone_number } = profileDetailsSchema.entries;
const userDetails = v.object({ name });
const creatorDetails = v.object({ name, username, description, phone_number });
const creatorDetailsWithoutPhone = v.object({ name, username, description });

/**
 * What the form sends (spec §5 'Profile edit'): the name for everyone; username, phone and description for
 * creators only. A phone the account never had may stay empty; once set, it keeps the 'longer than 3' rule.
 */
export function detailsSchemaFor(profile: OwnProfile, values: DetailsValues) {
  if (!isCreator(profile)) return userDetails;
  return values.phone_number.trim() === '' && !profile.phone_number
    ? creatorDetailsWithoutPhone
    : creatorDetails;
}

function DetailsForm({ profile, update }: { profile: OwnProfile; update: (p: OwnProfile) => void }) {
  const showToast = useSetAtom(showToastAtom);
  const back = useBackToSettings();
  const creator = isCreator(profile);
  const initial = valuesOf(profile);
  const form = useForm({
    schema: (values: DetailsValues) => detailsSchemaFor(profile, values),
    initial,
    draft: { key: 'settings-details' },
    // Spec §8: any failure of a profile edit that names no field.
    errorTexts: { network: messages.server.internal, serverMessage: false },
    onError: endSessionOn401,
    onSubmit: async (output) => {
      const answer = await updateProfile(output);
      update(answer.user);
      showToast(messages.profile.detailsUpdated);
      back();
    },
  });
  const changed = (Object.keys(initial) as (keyof DetailsValues)[]).some(
    (key) => form.values[key] !== initial[key],
  );
  const username = form.values.username.trim();

  return (
    <Form form={form} aria-label="Details" className="settings-form">
      <TextField form={form} name="name" label="Display name" autoComplete="name" maxLength={80} />
      {creator && (
        <>
          <TextField
            form={form}
            name="username"
            label="Username"
            autoComplete="username"
            maxLength={32}
            hint={
              username
                ? `Your profile: ${window.location.host}/${username.toLowerCase()}`
                : 'Letters, numbers, hyphens and underscores.'
            }
          />
          <TextField
            form={form}
            name="phone_number"
            label="Phone number"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            maxLength={32}
          />
          <TextAreaField
            form={form}
            name="description"
            label="Description"
            maxLength={DESCRIPTION_MAX}
            rows={4}
            placeholder="Tell viewers what your videos are about"
          />
        </>
      )}
      <SubmitButton form={form}>Save</SubmitButton>
      {changed && !form.submitting && (
        <button type="button" className="btn btn-ghost" onClick={() => form.reset(initial)}>
          Undo changes
        </button>
      )}
    </Form>
  );
}

/** /account/settings/details */
export function DetailsScreen() {
  return (
    <SettingsPage title="Details">
      {(profile, update) => <DetailsForm key={profile.id} profile={profile} update={update} />}
    </SettingsPage>
  );
}
