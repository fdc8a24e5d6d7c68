// The upload-details contract the client validates with before sending (the server parses with it again).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { formatBytes, splitTags, tagSlug } from '../../src/contract/upload';
import {
  scheduledInstant,
  tagProblem,
  uploadDetailsFieldsSchema,
  uploadDetailsSchema,
} from '../../src/contract/upload-details';

const errors = (input: unknown) => {
  const result = v.safeParse(uploadDetailsSchema, input);
  return result.success ? {} : v.flatten(result.issues).nested;
};

describe('upload details contract', () => {
  it('reads a date-time picker value as wall-clock time in the chosen zone', () => {
    expect(scheduledInstant('2030-07-01T12:00', 'America/New_York')?.toISOString()).toBe(
      '2030-07-01T16:00:00.000Z',
    );
    expect(scheduledInstant('2030-01-01 12:00:30', 'Europe/Paris')?.toISOString()).toBe(
      '2030-01-01T11:00:30.000Z',
    );
    expect(scheduledInstant('2030-01-01T12:00+05:30', undefined)?.toISOString()).toBe(
      '2030-01-01T06:30:00.000Z',
    );
    expect(scheduledInstant('2030-01-01T12:00Z', 'Asia/Tokyo')?.toISOString()).toBe(
      '2030-01-01T12:00:00.000Z',
    );
    // 02:30 does not exist in Paris on the spring change: it moves by the change.
    expect(scheduledInstant('2030-03-31T02:30', 'Europe/Paris')?.toISOString()).toBe(
      '2030-03-31T01:30:00.000Z',
    );
    for (const bad of [
      '2030-02-29T10:00',
      '2030-13-01T10:00',
      '2030-01-01T24:00',
      '2030-01-01',
      'tomorrow',
    ]) {
      expect(scheduledInstant(bad, 'UTC'), bad).toBeNull();
    }
    expect(scheduledInstant('2030-01-01T10:00', 'Nowhere/City')).toBeNull();
  });

  it('splits comma-joined tags and compares them as one tag regardless of case and separators', () => {
    expect(splitTags(' neon, retro-wave,,chill ')).toEqual(['neon', 'retro-wave', 'chill']);
    expect(tagSlug('Neon_Lights')).toBe('neon-lights');
    expect(tagSlug('Café')).toBe('cafe');
    expect(tagSlug('日本')).toBe('日本');
    expect(errors({ videoId: 1, title: 'x', tags: 'Neon_Lights,neon-lights' })).toEqual({
      tags: ['Cannot add the same tag twice'],
    });
    expect(
      errors({ videoId: 1, title: 'x', tags: Array.from({ length: 21 }, (_, i) => `tag${i}`).join(',') }),
    ).toEqual({
      tags: ['Add at most 20 tags.'],
    });
    expect(errors({ videoId: 1, title: 'x', tags: 'ok!' })).toEqual({
      tags: ['Tags can only have letters, numbers, - and _.'],
    });
  });

  it('gives the output the server stores', () => {
    const result = v.parse(uploadDetailsSchema, {
      videoId: '7',
      title: ' Night ',
      tags: 'a1,b2',
      is_nsfw: 'on',
      uploadDate: '2031-01-01T10:00',
      uploadDateTimezone: 'UTC',
    });
    expect(result).toEqual({
      videoId: 7,
      title: 'Night',
      tags: ['a1', 'b2'],
      isNsfw: true,
      publishAt: new Date('2031-01-01T10:00:00.000Z'),
      timeZone: 'UTC',
    });
    expect(
      v.parse(uploadDetailsSchema, { videoId: 1, title: 'x', uploadDateTimezone: 'UTC' }).publishAt,
    ).toBeNull();
  });

  it('words byte limits as file pickers do', () => {
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GB');
    expect(formatBytes(64 * 1024)).toBe('64 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
  });

  it('judges one tag as the form adds it, with the words of the whole list', () => {
    expect(tagProblem('a')).toBe('Tag must be at least 2 characters long');
    expect(tagProblem('neon city')).toBe('Tags cannot have spaces.');
    expect(tagProblem('#neon')).toBe('Tags cannot have #.');
    expect(tagProblem('Neon_Lights', ['neon-lights'])).toBe('Cannot add the same tag twice');
    expect(tagProblem('x'.repeat(31))).toBe('Tags cannot be longer than 30 characters.');
    expect(tagProblem('ok!')).toBe('Tags can only have letters, numbers, - and _.');
    expect(
      tagProblem(
        'more',
        Array.from({ length: 20 }, (_, i) => `tag${i}`),
      ),
    ).toBe('Add at most 20 tags.');
    expect(tagProblem('日本', ['neon'])).toBeUndefined();
  });

  it('checks the details form before the video exists, and ignores a date left behind by an unticked schedule', () => {
    const fields = (input: unknown) => {
      const result = v.safeParse(uploadDetailsFieldsSchema, input);
      return result.success ? {} : v.flatten(result.issues).nested;
    };
    const base = { title: 'Night', tags: ['neon'], is_nsfw: false, uploadDateTimezone: 'UTC' };
    expect(fields({ ...base, title: '  ' })).toEqual({ title: ['Title is required.'] });
    expect(fields({ ...base, schedule: true, uploadDate: '' })).toEqual({ uploadDate: ['Select a date'] });
    expect(fields({ ...base, schedule: true, uploadDate: '2001-01-01T10:00' })).toEqual({
      uploadDate: ['Selected date is in the past'],
    });
    expect(fields({ ...base, schedule: false, uploadDate: '2001-01-01T10:00' })).toEqual({});
    expect(fields({ ...base, schedule: true, uploadDate: '2031-01-01T10:00' })).toEqual({});
  });
});
