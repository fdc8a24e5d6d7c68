import { type ContactInput, contactResponseSchema } from '../contract';
import { apiFetch } from './http';

/** POST /v1/contact: a message to the operator; 429 once a sender has written too often (spec §8). */
export function postContact(input: ContactInput, signal?: AbortSignal) {
  return apiFetch('/v1/contact', { method: 'POST', body: input, schema: contactResponseSchema, signal });
}
