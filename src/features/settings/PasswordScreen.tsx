import { useSetAtom } from 'jotai';
import { updateProfile } from '../../api/profile';
import { messages, type OwnProfile, PASSWORD_MIN, profilePasswordSchema } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { Form, PasswordField, SubmitButton, useForm } from '../../ui/form';
import { endSessionOn401, SettingsPage, useBackToSettings } from './shared';

/**
 * Spec §5 'Password change'. The server ends every other session of the account and keeps the one that made
 * the change, so this device stays signed in with the token it has; nothing to store anew. The current
 * password comes first (a stolen token alone must not take the account over), except right after a
 * password-reset link, whose whole point is that the old one is forgotten.
 */
function PasswordForm({ profile, update }: { profile: OwnProfile; update: (p: OwnProfile) => void }) {
  const showToast = useSetAtom(showToastAtom);
  const back = useBackToSettings();
  const form = useForm({
    schema: profilePasswordSchema,
    initial: { current_password: '', password: '', password_confirmation: '' },
    errorTexts: { network: messages.server.internal, serverMessage: false },
    onError: endSessionOn401,
    onSubmit: async ({ current_password, password, password_confirmation }) => {
      const answer = await updateProfile({
        ...(profile.passwordResetSession ? {} : { current_password }),
        password,
        password_confirmation,
      });
      update(answer.user);
      showToast(messages.profile.passwordChanged);
      back();
    },
  });
  return (
    <Form form={form} aria-label="Password" className="settings-form">
      {/* Lets a password manager file the new password under the right account. */}
      <input type="email" name="email" autoComplete="username" value={profile.email} readOnly hidden />
      {!profile.passwordResetSession && (
        <PasswordField
          form={form}
          name="current_password"
          label="Current password"
          autoComplete="current-password"
        />
      )}
      <PasswordField
        form={form}
        name="password"
        label="New password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN} characters.`}
      />
      <PasswordField
        form={form}
        name="password_confirmation"
        label="Repeat new password"
        autoComplete="new-password"
      />
      <p className="settings-note">
        You stay signed in here; your other devices will ask you to sign in again.
      </p>
      <SubmitButton form={form}>Change password</SubmitButton>
    </Form>
  );
}

/** /account/settings/password */
export function PasswordScreen() {
  return (
    <SettingsPage title="Password">
      {(profile, update) => <PasswordForm key={profile.id} profile={profile} update={update} />}
    </SettingsPage>
  );
}
