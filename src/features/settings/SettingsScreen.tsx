import type { CSSProperties } from 'react';
import type { OwnProfile } from '../../contract';
import { Avatar } from '../../ui/Avatar';
import { creatorColor } from '../../ui/ChannelCard';
import { GlobeIcon, UserIcon } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { type MenuEntry, MenuList } from '../../ui/MenuList';
import { BuildingIcon, GenderIcon, LockIcon, PaletteIcon, ShieldIcon } from '../../ui/more-icons';
import { genderLabels, isCreator, SettingsPage } from './shared';

const validationNotes: Record<OwnProfile['isVerified'], string> = {
  none: 'Verify your identity to upload videos',
  pending: 'Pending review',
  rejected: 'Rejected: please send it again',
  approved: '',
};

function ColorValue({ color }: { color: string | null }) {
  const safe = creatorColor(color);
  if (!safe) return <>Not set</>;
  return (
    <span className="settings-color-value">
      <span className="settings-swatch" style={{ '--swatch': safe } as CSSProperties} aria-hidden="true" />
      {safe}
    </span>
  );
}

/** Spec §2 'Account settings list', in its order; the values as second lines. */
export function settingsEntries(profile: OwnProfile): { account: MenuEntry[]; creator: MenuEntry[] } {
  const creator = isCreator(profile);
  const account: MenuEntry[] = [];
  if (creator && profile.isVerified !== 'approved') {
    account.push({
      label: 'Account validation',
      description: validationNotes[profile.isVerified],
      Icon: ShieldIcon,
      to: '/account/settings/validation',
      highlight: true,
    });
  }
  account.push(
    { label: 'Details', description: profile.name, Icon: UserIcon, to: '/account/settings/details' },
    {
      label: 'Sex',
      description: genderLabels[profile.gender],
      Icon: GenderIcon,
      to: '/account/settings/gender',
    },
    {
      label: 'Password',
      description: 'Change the password you sign in with',
      Icon: LockIcon,
      to: '/account/settings/password',
    },
  );
  const tools: MenuEntry[] = [];
  if (profile.type === 'channel') {
    tools.push({
      label: 'Channel color',
      description: <ColorValue color={profile.color} />,
      Icon: PaletteIcon,
      to: '/account/settings/channel-color',
    });
  }
  if (creator) {
    tools.push(
      {
        label: 'Studio',
        description: profile.studio ? profile.studio.name : 'Not in a studio',
        Icon: BuildingIcon,
        to: '/account/settings/studio',
      },
      {
        label: 'Geo-blocking',
        description: 'Hide your videos in chosen countries',
        Icon: GlobeIcon,
        to: '/account/settings/geo-blocking',
      },
    );
  }
  return { account, creator: tools };
}

/** /account/settings: who is signed in, then the settings this account type has. */
export function SettingsScreen() {
  return (
    <SettingsPage title="Settings">
      {(profile) => {
        const { account, creator } = settingsEntries(profile);
        return (
          <>
            <Link to={`/${encodeURIComponent(profile.slug)}`} className="settings-who">
              <Avatar src={profile.avatar} name={profile.name} size={56} />
              <span className="settings-who-text">
                <span className="settings-who-name">{profile.name}</span>
                <span className="settings-who-email">{profile.email}</span>
              </span>
              <span className="settings-who-link">View profile</span>
            </Link>
            <section className="settings-section" aria-labelledby="settings-account">
              <h2 id="settings-account" className="settings-section-title">
                Account
              </h2>
              <MenuList entries={account} label="Account settings" />
            </section>
            {creator.length > 0 && (
              <section className="settings-section" aria-labelledby="settings-creator">
                <h2 id="settings-creator" className="settings-section-title">
                  {profile.type === 'channel' ? 'Channel' : 'Creator'}
                </h2>
                <MenuList entries={creator} label="Creator settings" />
              </section>
            )}
          </>
        );
      }}
    </SettingsPage>
  );
}
