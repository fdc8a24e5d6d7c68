// Upload details (spec §3 'Upload details', §4 'Upload', §7 POST /v1/videos/upload-details): what the creator
// fills in for an uploaded video. The client validates with these schemas before sending; the server parses
// with them again, so both show the same words. Imported as 'contract/upload-details', never through the
// index: the upload screens and the server are its only users, and the shell of every page stays without it.
import * as v from 'valibot';
import { idSchema } from './common';
import { messages } from './messages';
import { splitTags, tagSlug } from './upload';

const m = messages.upload;

export const TAG_MIN = 2;
export const TAG_MAX = 30;
export const TAGS_MAX = 20;
export const TITLE_MAX = 100;
/** A date picked "now" is a few seconds old when it arrives; that is not the past yet. */
export const SCHEDULE_GRACE_MS = 60_000;

export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const WALL_CLOCK =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Milliseconds the zone is ahead of UTC at `instant` (negative west of Greenwich). */
function zoneOffsetMs(zone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a date-time picker value means: `2026-05-01T20:30` is wall-clock time in `zone` (an IANA
 * name such as Europe/Paris); a value with its own offset (`…Z`, `…+02:00`) is taken as is. A wall-clock
 * time that a daylight-saving change skips moves by the change. Null when the value is not a real
 * date-time or the zone is needed and unknown.
 */
export function scheduledInstant(value: string, zone: string | undefined): Date | null {
  const match = WALL_CLOCK.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((x) => Number(x ?? 0)) as number[];
  const wall = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
  const check = new Date(wall);
  // Date.UTC rolls 2026-02-30 over to March: a value that does not survive the round trip is not a date.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== (month as number) - 1 ||
    check.getUTCDate() !== day ||
    (hour as number) > 23 ||
    (minute as number) > 59 ||
    (second as number) > 59
  )
    return null;
  const offset = match[7];
  if (offset) {
    if (offset === 'Z') return new Date(wall);
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
    return minutes > 18 * 60 ? null : new Date(wall - sign * minutes * 60_000);
  }
  if (!zone || !isTimeZone(zone)) return null;
  // Two passes: the offset at the first guess may differ from the offset at the answer near a DST change.
  const guess = wall - zoneOffsetMs(zone, wall);
  return new Date(wall - zoneOffsetMs(zone, guess));
}

const hasOwnOffset = (value: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(value);

/** Ids arrive as JSON numbers or as digit strings (forms); anything else is "missing". */
const videoIdField = idSchema(m.missingVideo);

/** Checkbox values as JSON and as form fields send them. */
const FLAGS = new Map<unknown, boolean>([
  [true, true],
  [false, false],
  [1, true],
  [0, false],
  ['1', true],
  ['0', false],
  ['true', true],
  ['false', false],
  ['on', true],
  ['off', false],
  ['', false],
  [null, false],
]);
const flag = (message: string) =>
  v.pipe(
    v.optional(v.unknown(), false),
    v.check((x) => FLAGS.has(x), message),
    v.transform((x) => FLAGS.get(x) === true),
  );

const text = (max: number, message: string) =>
  v.pipe(
    v.optional(v.nullable(v.string(message)), ''),
    v.transform((x) => (x ?? '').trim()),
    v.maxLength(max, message),
  );

const tagsField = v.pipe(
  v.optional(v.nullable(v.union([v.string(), v.array(v.string())], m.tagCharacters)), ''),
  // A joined string is what the spec sends; an array is accepted as the same list.
  v.transform((x) => splitTags(Array.isArray(x) ? x.join(',') : (x ?? ''))),
  v.check((tags) => tags.every((tag) => !/\s/u.test(tag)), m.tagSpaces),
  v.check((tags) => tags.every((tag) => !tag.includes('#')), m.tagHash),
  v.check((tags) => tags.every((tag) => [...tag].length >= TAG_MIN), m.tagTooShort),
  v.check((tags) => tags.every((tag) => [...tag].length <= TAG_MAX), m.tagTooLong),
  v.check(
    (tags) => tags.every((tag) => /\s|#/u.test(tag) || /^[\p{L}\p{M}\p{N}_-]+$/u.test(tag)),
    m.tagCharacters,
  ),
  // '__' or '-_-' passes the character rule but has no slug: the tag would live at an empty URL.
  v.check((tags) => tags.every((tag) => tagSlug(tag) !== ''), m.tagNoLetters),
  v.check((tags) => new Set(tags.map(tagSlug)).size === tags.length, m.tagDuplicate),
  v.check((tags) => tags.length <= TAGS_MAX, m.tooManyTags),
);

/**
 * Why `tag` may not join `others` (tags already accepted), or undefined when it may: the tags field's own
 * rules (spec §5), so a tag typed into the form is refused with the words the server would use.
 */
export function tagProblem(tag: string, others: readonly string[] = []): string | undefined {
  const result = v.safeParse(tagsField, [...others, tag]);
  return result.success ? undefined : result.issues[0].message;
}

/** What the creator fills in, without the video it belongs to (the upload may still be under way). */
const detailEntries = {
  title: v.pipe(
    v.optional(v.unknown(), ''),
    v.transform((x) => (x === null ? '' : x)),
    v.string(m.titleRequired),
    v.trim(),
    v.nonEmpty(m.titleRequired),
    v.maxLength(TITLE_MAX, m.titleTooLong),
    v.check((s) => !s.includes('\u0000'), m.titleRequired),
  ),
  tags: tagsField,
  is_nsfw: flag(m.invalidNsfw),
  schedule: flag(m.invalidSchedule),
  uploadDate: text(40, m.invalidDate),
  uploadDateTimezone: text(64, m.timezoneRequired),
};

interface ScheduleFields {
  schedule: boolean;
  uploadDate: string;
  uploadDateTimezone: string;
}

// The schedule's rules, shared by both schemas below: a date when scheduling, a zone that makes it an
// instant, a real date-time, and not in the past.
const datePicked = (i: ScheduleFields) => !i.schedule || i.uploadDate !== '';
const zoneKnown = (i: ScheduleFields) =>
  i.uploadDate === '' || hasOwnOffset(i.uploadDate) || isTimeZone(i.uploadDateTimezone);
const dateReal = (i: ScheduleFields) =>
  i.uploadDate === '' ||
  (!hasOwnOffset(i.uploadDate) && !isTimeZone(i.uploadDateTimezone)) ||
  scheduledInstant(i.uploadDate, i.uploadDateTimezone) !== null;
const dateAhead = (i: ScheduleFields) => {
  const at = i.uploadDate ? scheduledInstant(i.uploadDate, i.uploadDateTimezone) : null;
  return at === null || at.getTime() >= Date.now() - SCHEDULE_GRACE_MS;
};

/**
 * The details form (spec §4 step 2) before the video id is known: the same fields and rules as
 * upload-details. A date left in the picker while "schedule" is off is not a schedule, so it is not judged.
 */
export const uploadDetailsFieldsSchema = v.pipe(
  v.object(detailEntries),
  v.transform((i) => (i.schedule ? i : { ...i, uploadDate: '' })),
  v.forward(v.partialCheck([['schedule'], ['uploadDate']], datePicked, m.selectDate), ['uploadDate']),
  v.forward(v.partialCheck([['uploadDate'], ['uploadDateTimezone']], zoneKnown, m.timezoneRequired), [
    'uploadDateTimezone',
  ]),
  v.forward(v.partialCheck([['uploadDate'], ['uploadDateTimezone']], dateReal, m.invalidDate), [
    'uploadDate',
  ]),
  v.forward(v.partialCheck([['uploadDate'], ['uploadDateTimezone']], dateAhead, m.dateInPast), [
    'uploadDate',
  ]),
);

/**
 * POST /v1/videos/upload-details. Scheduling: `uploadDate` (a date-time picker value) is wall-clock time
 * in `uploadDateTimezone`; `schedule: true` without a date is 'Select a date'. Without a date the video is
 * published as soon as it is processed.
 */
export const uploadDetailsSchema = v.pipe(
  v.object({ videoId: videoIdField, ...detailEntries }),
  v.forward(v.partialCheck([['schedule'], ['uploadDate']], datePicked, m.selectDate), ['uploadDate']),
  v.forward(v.partialCheck([['uploadDate'], ['uploadDateTimezone']], zoneKnown, m.timezoneRequired), [
    'uploadDateTimezone',
  ]),
  v.forward(v.partialCheck([['uploadDate'], ['uploadDateTimezone']], dateReal, m.invalidDate), [
    'uploadDate',
  ]),
  v.forward(v.partialCheck([['uploadDate'], ['uploadDateTimezone']], dateAhead, m.dateInPast), [
    'uploadDate',
  ]),
  v.transform((i) => ({
    videoId: i.videoId,
    title: i.title,
    tags: i.tags,
    isNsfw: i.is_nsfw,
    /** Null: publish when processing ends. */
    publishAt: i.uploadDate ? scheduledInstant(i.uploadDate, i.uploadDateTimezone) : null,
    timeZone: i.uploadDate && isTimeZone(i.uploadDateTimezone) ? i.uploadDateTimezone : null,
  })),
);
export type UploadDetailsInput = v.InferInput<typeof uploadDetailsSchema>;
export type UploadDetails = v.InferOutput<typeof uploadDetailsSchema>;
