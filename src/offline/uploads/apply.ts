// Where the upload's table meets its store: an event applied to the stored record in one read-modify-write
// transaction. Apart from both, so the pure table (machine.ts) and the store (records.ts) import neither.
import { transition, type UploadEvent } from './machine';
import { updateRecord } from './records';

/** Applies `event` to the stored record (see machine.ts); the result, or undefined when it is gone. */
export const applyEvent = (id: string, event: UploadEvent) => updateRecord(id, (r) => transition(r, event));
