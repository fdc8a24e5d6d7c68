// The readiness probe's one question to the database: does it answer at all.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export const databaseAnswers = (db: Db) => db.execute(sql`select 1`);
