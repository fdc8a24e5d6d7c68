// The SQL of the contact form: messages to the operator, kept in the database as well as mailed.
import type { ContactInput } from '../../src/contract';
import type { Db } from '../db/client';
import * as t from '../db/schema';

export async function storeContactMessage(db: Db, input: ContactInput, ip: string) {
  await db.insert(t.contactMessages).values({ ...input, ip });
}
