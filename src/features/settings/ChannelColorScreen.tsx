import { useSetAtom } from 'jotai';
import { updateProfile } from '../../api/profile';
import { messages, type OwnProfile, profileColorSchema } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { ChannelCard } from '../../ui/ChannelCard';
import { ColorField, Form, SubmitButton, type Swatch, useForm } from '../../ui/form';
import { Link } from '../../ui/Link';
import { StateMessage } from '../../ui/StateMessage';
import { endSessionOn401, SETTINGS_PATH, SettingsPage, useBackToSettings } from './shared';

/** Bright enough to read as a border on the dark theme; the demo channels' colours are among them. */
export const CHANNEL_PALETTE: readonly Swatch[] = [
  { value: '#8b5cf6', label: 'Violet' },
  { value: '#d946ef', label: 'Fuchsia' },
  { value: '#ec4899', label: 'Pink' },
  { value: '#f43f5e', label: 'Rose' },
  { value: '#f97316', label: 'Orange' },
  { value: '#f59e0b', label: 'Amber' },
  { value: '#84cc16', label: 'Lime' },
  { value: '#10b981', label: 'Emerald' },
  { value: '#06b6d4', label: 'Cyan' },
  { value: '#3b82f6', label: 'Blue' },
  { value: '#6366f1', label: 'Indigo' },
];

const DEFAULT_COLOR = '#8b5cf6';
const colorFailed = messages.profile.colorFailed;

function ColorForm({ profile, update }: { profile: OwnProfile; update: (p: OwnProfile) => void }) {
  const showToast = useSetAtom(showToastAtom);
  const back = useBackToSettings();
  const form = useForm({
    schema: profileColorSchema,
    initial: { color: (profile.color ?? DEFAULT_COLOR).toLowerCase() },
    // Spec §8: one text for a colour that did not change, whatever went wrong.
    errorTexts: { network: colorFailed, fallback: colorFailed, serverMessage: false },
    onError: endSessionOn401,
    onSubmit: async ({ color }) => {
      const answer = await updateProfile({ color });
      update(answer.user);
      // Spec §8: the colour's success reads like the profile image's.
      showToast(messages.profile.photoUpdated);
      back();
    },
  });
  return (
    <Form form={form} aria-label="Channel color" className="settings-form">
      <figure className="settings-preview">
        <ChannelCard channel={{ ...profile, color: form.values.color }} eager />
        <figcaption className="settings-preview-caption">How viewers see your channel on Channels</figcaption>
      </figure>
      <ColorField
        form={form}
        name="color"
        label="Border color"
        palette={CHANNEL_PALETTE}
        hint={`Chosen: ${form.values.color}`}
      />
      <SubmitButton form={form}>Save color</SubmitButton>
    </Form>
  );
}

/** /account/settings/channel-color: channels only (spec §2). */
export function ChannelColorScreen() {
  return (
    <SettingsPage title="Channel color">
      {(profile, update) =>
        profile.type === 'channel' ? (
          <ColorForm key={profile.id} profile={profile} update={update} />
        ) : (
          <StateMessage
            title="Only channels have a color"
            text="A channel's color frames its card on Channels and its profile picture."
          >
            <Link to={SETTINGS_PATH} className="btn btn-ghost">
              Back to settings
            </Link>
          </StateMessage>
        )
      }
    </SettingsPage>
  );
}
