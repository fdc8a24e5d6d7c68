import * as v from 'valibot';
import { verificationStatusSchema } from '../contract';
import { apiFetch } from './http';

const sentSchema = v.object({ message: v.string(), status: verificationStatusSchema });

/** POST /v1/profile/verification: the wizard's fields and its four images as one multipart form (201). */
export function submitVerification(form: FormData, signal?: AbortSignal) {
  return apiFetch('/v1/profile/verification', { method: 'POST', body: form, schema: sentSchema, signal });
}
