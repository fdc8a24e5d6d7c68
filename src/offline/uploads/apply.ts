// Where the upload's table meets its store: an event applied to the stored record in one read-modify-write
// transaction. Apart from both, so the pure table (machine.ts) and the store (records.ts) import neither.
import { transition, type UploadEvent } from './machine';
import { updateRecord } from './records';

export const applyEvent = (id: string, event: UploadEvent) => updateRecord(id, (r) => transition(r, event));
