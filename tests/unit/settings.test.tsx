// The logic of the settings, following, rating and preference screens that lives outside the form kit: which
// settings an account has (spec §2 'Account settings list'), what the details form sends (spec §5 'Profile
// edit'), the stored gender preference, and the colour a card may take.
import { render, screen } from '@testing-library/react';
import { createStore } from 'jotai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { genderPreferenceAtom, genderPreferenceOf } from '../../src/api/genderPreference';
import type { OwnProfile } from '../../src/contract';
import { messages } from '../../src/contract';
import { detailsSchemaFor } from '../../src/features/settings/DetailsScreen';
import { settingsEntries } from '../../src/features/settings/SettingsScreen';
import { preferencesCategoryAtom } from '../../src/state/preferences';
import { creatorColor } from '../../src/ui/ChannelCard';

const profile = (patch: Partial<OwnProfile>): OwnProfile => ({
  id: 7,
  type: 'model',
  name: 'Echo Lane',
  slug: 'echo_lane',
  username: 'echo_lane',
  email: 'echo.lane@demo.test',
  emailVerified: true,
  avatar: null,
  cover: null,
  description: null,
  color: null,
  gender: 'm',
  phone_number: '+1 555 0100',
  country: 'US',
  preference: null,
  isLive: 0,
  isVerified: 'approved',
  verificationNote: null,
  passwordResetSession: false,
  studio: null,
  links: [],
  ...patch,
});

const labels = (p: OwnProfile) => {
  const { account, creator } = settingsEntries(p);
  return [...account, ...creator].map((e) => e.label);
};

describe('settings list (spec §2)', () => {
  it('gives a plain user details, sex and password only, with the current values', () => {
    const user = profile({ type: 'user', isVerified: 'none', gender: 't', name: 'Sam' });
    expect(labels(user)).toEqual(['Details', 'Sex', 'Password']);
    const { account } = settingsEntries(user);
    expect(account[0]?.description).toBe('Sam');
    expect(account[1]?.description).toBe('Trans');
  });

  it("puts 'Account validation' first, highlighted, for a creator not yet approved", () => {
    for (const status of ['none', 'pending', 'rejected'] as const) {
      const { account } = settingsEntries(profile({ isVerified: status }));
      expect(account[0]).toMatchObject({
        label: 'Account validation',
        highlight: true,
        to: '/account/settings/validation',
      });
      expect(account.filter((e) => e.highlight)).toHaveLength(1);
    }
    expect(labels(profile({ isVerified: 'approved' }))).not.toContain('Account validation');
  });

  it('gives models studio and geo-blocking, and channels their colour too, in the spec order', () => {
    expect(labels(profile({}))).toEqual(['Details', 'Sex', 'Password', 'Studio', 'Geo-blocking']);
    expect(labels(profile({ type: 'channel', isVerified: 'pending' }))).toEqual([
      'Account validation',
      'Details',
      'Sex',
      'Password',
      'Channel color',
      'Studio',
      'Geo-blocking',
    ]);
  });

  it("shows the channel's colour as a swatch with its value, and the studio's name", () => {
    const channel = profile({
      type: 'channel',
      color: '#06B6D4',
      studio: { id: 1, name: 'Blue', role: null },
    });
    const { creator } = settingsEntries(channel);
    render(<p>{creator[0]?.description}</p>);
    expect(screen.getByText('#06b6d4')).toBeTruthy();
    expect(creator[1]?.description).toBe('Blue');
  });
});

describe('details form payload (spec §5 profile edit)', () => {
  const values = { name: 'New', username: 'new_name', phone_number: '+1 555', description: 'Hi' };

  it('sends only the name for a plain user, whatever else the form holds', () => {
    const user = profile({ type: 'user' });
    expect(v.parse(detailsSchemaFor(user, values), values)).toEqual({ name: 'New' });
  });

  it("checks a creator's username, phone and description with the spec messages", () => {
    const model = profile({});
    const issues = (patch: Partial<typeof values>) => {
      const input = { ...values, ...patch };
      const result = v.safeParse(detailsSchemaFor(model, input), input);
      return result.success ? [] : result.issues.map((i) => i.message);
    };
    expect(issues({})).toEqual([]);
    expect(issues({ username: 'no spaces' })).toEqual([messages.auth.usernameInvalid]);
    expect(issues({ phone_number: '123' })).toEqual([messages.profile.phoneTooShort]);
    expect(issues({ description: 'x'.repeat(201) })).toEqual([messages.profile.descriptionTooLong]);
    expect(issues({ description: 'x'.repeat(200) })).toEqual([]);
    expect(issues({ name: ' ' })).toEqual([messages.profile.nameRequired]);
  });

  it('lets a creator who never had a phone leave it empty, but not clear one they have', () => {
    const empty = { ...values, phone_number: '' };
    const without = profile({ phone_number: null });
    expect(v.parse(detailsSchemaFor(without, empty), empty)).not.toHaveProperty('phone_number');
    expect(v.safeParse(detailsSchemaFor(profile({}), empty), empty).success).toBe(false);
  });
});

describe('gender preference (spec §3 preferencesCategory)', () => {
  it('reads any stored value as Male, Trans or both', () => {
    expect(genderPreferenceOf('m')).toBe('m');
    expect(genderPreferenceOf('t')).toBe('t');
    expect(genderPreferenceOf('t,m')).toBe('m,t');
    expect(genderPreferenceOf('m,t')).toBe('m,t');
    expect(genderPreferenceOf('')).toBe('m');
    expect(genderPreferenceOf('x')).toBe('m');
  });

  it('writes the comma-joined value the feeds read; a guest keeps it on the device only', () => {
    const store = createStore();
    expect(store.get(genderPreferenceAtom)).toBe('m');
    store.set(genderPreferenceAtom, 'm,t');
    expect(store.get(preferencesCategoryAtom)).toBe('m,t');
    store.set(genderPreferenceAtom, 't');
    expect(store.get(preferencesCategoryAtom)).toBe('t');
    expect(store.get(genderPreferenceAtom)).toBe('t');
  });
});

describe('creator colours', () => {
  it('lets only a plain hex colour tint a card', () => {
    expect(creatorColor('#8B5CF6')).toBe('#8b5cf6');
    expect(creatorColor('#abc')).toBe('#abc');
    expect(creatorColor('red')).toBeUndefined();
    expect(creatorColor('#8b5cf6; background: url(x)')).toBeUndefined();
    expect(creatorColor(null)).toBeUndefined();
  });
});
