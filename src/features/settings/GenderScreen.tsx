import { useSetAtom } from 'jotai';
import { updateProfile } from '../../api/profile';
import { type Gender, messages, type OwnProfile, profileGenderSchema } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { ChoiceField, Form, SubmitButton, useForm } from '../../ui/form';
import { endSessionOn401, genderLabels, isCreator, SettingsPage, useBackToSettings } from './shared';

function GenderForm({ profile, update }: { profile: OwnProfile; update: (p: OwnProfile) => void }) {
  const showToast = useSetAtom(showToastAtom);
  const back = useBackToSettings();
  const form = useForm({
    schema: profileGenderSchema,
    initial: { gender: profile.gender as Gender | '' },
    errorTexts: { network: messages.server.internal, serverMessage: false },
    onError: endSessionOn401,
    onSubmit: async ({ gender }) => {
      const answer = await updateProfile({ gender });
      update(answer.user);
      showToast(messages.profile.genderChanged);
      back();
    },
  });
  const options = (Object.keys(genderLabels) as Gender[]).map((value) => ({
    value,
    label: genderLabels[value],
  }));
  return (
    <Form form={form} aria-label="Sex" className="settings-form">
      <ChoiceField
        form={form}
        name="gender"
        label="Sex"
        options={options}
        hint={isCreator(profile) ? 'Viewers who choose this category see your videos.' : undefined}
      />
      <SubmitButton form={form}>Save</SubmitButton>
    </Form>
  );
}

/** /account/settings/gender ('Sex' in the list, spec §2). */
export function GenderScreen() {
  return (
    <SettingsPage title="Sex">
      {(profile, update) => <GenderForm key={profile.id} profile={profile} update={update} />}
    </SettingsPage>
  );
}
