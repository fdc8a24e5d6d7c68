// The identity verification form (spec §3 'Verification form', §5 'Verification'). The four images travel
// as multipart files; here they are only required to be present, the server checks their content.
import * as v from 'valibot';
import { present } from './auth';
import { messages } from './messages';

const m = messages.verification;
export const MIN_AGE = 18;

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

/** The four image fields of the multipart form. */
export const verificationImageFields = [
  'front_picture_id',
  'back_picture_id',
  'face_picture_id',
  'signature',
] as const;

export const verificationSchema = v.object({
  legal_name: required(m.legalName),
  gender: required(m.gender, 20),
  address: required(m.address, 500),
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
  // Informative: the stored age is computed from the birthday, which is what the law cares about.
  age: v.optional(
    v.pipe(
      v.union(
        [v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d{1,3}$/, m.age), v.transform(Number))],
        m.age,
      ),
      v.number(),
      v.integer(m.age),
      v.minValue(MIN_AGE, m.underage),
      v.maxValue(130, m.age),
    ),
    MIN_AGE,
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
  front_picture_id: required(m.frontPicture),
  back_picture_id: required(m.backPicture),
  face_picture_id: required(m.facePicture),
  signature: required(m.signature),
});
export type VerificationInput = v.InferOutput<typeof verificationSchema>;
