// The identity verification form (spec §3 'Verification form', §5 'Verification'). The four images travel
// as multipart files; here they are only required to be present, the server checks their content.
import * as v from 'valibot';
import { present } from './auth';
import { genderSchema } from './common';
import { messages } from './messages';

const m = messages.verification;
export const MIN_AGE = 18;
const MAX_AGE = 130;

const required = (message: string, max = 200) =>
  present(v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(max, message)));

/** Whole years between `birth` (YYYY-MM-DD) and `today`, by calendar, not by 365-day years. */
export function ageOn(birth: string, today: Date = new Date()): number {
  const [y, mo, d] = birth.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday =
    today.getUTCMonth() + 1 < mo || (today.getUTCMonth() + 1 === mo && today.getUTCDate() < d);
  if (beforeBirthday) age--;
  return age;
}

const isRealDate = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s) && d.getUTCFullYear() >= 1900;
};

export const identificationTypes = ['driver', 'passport', 'idcard'] as const;

/** Spec §9: each picture at most 16 MB, checked on the device before a byte is sent. */
export const VERIFICATION_IMAGE_MAX_BYTES = 16 * 1024 * 1024;
export const verificationImageTypes = ['image/png', 'image/jpeg'] as const;

/**
 * A picture field. The client form holds the picked File (or the drawn signature's Blob): its presence, size
 * and type are checked here before sending. The server reads the multipart form and passes 'file' or '' for
 * presence, then judges the bytes themselves.
 */
const picture = (message: string) =>
  v.optional(
    v.union(
      [
        v.pipe(
          v.blob(message),
          v.minSize(1, message),
          v.maxSize(VERIFICATION_IMAGE_MAX_BYTES, messages.profile.imageTooLarge),
          // Some pickers give no type at all; the server judges the bytes in any case.
          v.check(
            (blob) => blob.type === '' || (verificationImageTypes as readonly string[]).includes(blob.type),
            messages.profile.imageType,
          ),
        ),
        v.pipe(v.string(message), v.nonEmpty(message)),
      ],
      message,
    ),
    '',
  );

/** The four image fields of the multipart form. */
export const verificationImageFields = [
  'front_picture_id',
  'back_picture_id',
  'face_picture_id',
  'signature',
] as const;

/**
 * The age the form states matches the birthday as of today somewhere on Earth: the client counts in its own
 * time zone, up to a day away from UTC around a birthday.
 */
const ageMatches = (age: number, birth: string, now = Date.now()) =>
  [-1, 0, 1].some((days) => ageOn(birth, new Date(now + days * 86_400_000)) === age);

export const verificationSchema = v.pipe(
  v.object({
    legal_name: required(m.legalName),
    gender: present(
      v.pipe(
        v.string(m.gender),
        v.trim(),
        v.nonEmpty(m.gender),
        v.picklist(genderSchema.options, messages.auth.invalidGender),
      ),
    ),
    address: required(m.address, 500),
    // The form only: membership in the ISO list is the server's check, which owns the reference data.
    country: present(
      v.pipe(v.string(m.country), v.trim(), v.regex(/^[A-Za-z]{2}$/, m.country), v.toUpperCase()),
    ),
    date_of_birth: present(
      v.pipe(
        v.string(m.dateOfBirth),
        v.trim(),
        v.check(isRealDate, m.dateOfBirth),
        // Guarded: a malformed date has already been reported once.
        v.check((s) => !isRealDate(s) || ageOn(s) >= MIN_AGE, m.underage),
      ),
    ),
    // Stated by the applicant (the form's default is 18) and required like every other field; what is
    // stored is computed from the birthday, which is what the law cares about.
    age: v.pipe(
      v.optional(
        v.union(
          [
            v.number(),
            v.pipe(v.string(), v.trim(), v.nonEmpty(m.age), v.regex(/^\d{1,3}$/, m.age), v.transform(Number)),
          ],
          m.age,
        ),
        '',
      ),
      v.number(),
      v.integer(m.age),
      v.minValue(MIN_AGE, m.underage),
      v.maxValue(MAX_AGE, m.age),
    ),
    stage_name: required(m.stageName, 80),
    identification: present(
      v.pipe(
        v.string(m.identification),
        v.picklist([...identificationTypes, ''], m.identification),
        v.nonEmpty(m.identification),
      ),
    ),
    identification_id: required(m.identificationId, 64),
    front_picture_id: picture(m.frontPicture),
    back_picture_id: picture(m.backPicture),
    face_picture_id: picture(m.facePicture),
    signature: picture(m.signature),
  }),
  v.forward(
    v.partialCheck(
      [['age'], ['date_of_birth']],
      // Guarded: valibot runs this despite a range issue, and an impossible date or age is reported already.
      (i) =>
        !isRealDate(i.date_of_birth) ||
        i.age < MIN_AGE ||
        i.age > MAX_AGE ||
        ageMatches(i.age, i.date_of_birth),
      m.ageMismatch,
    ),
    ['age'],
  ),
);
