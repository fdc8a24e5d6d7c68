// The SQL of studios: a studio by id, or by the join key its operator handed out (stored hashed).
import { eq } from 'drizzle-orm';
import { hashToken } from '../auth/tokens';
import type { Db } from '../db/client';
import * as t from '../db/schema';

export async function studioName(db: Db, id: number): Promise<string | undefined> {
  const [studio] = await db.select({ name: t.studios.name }).from(t.studios).where(eq(t.studios.id, id));
  return studio?.name;
}

export async function studioByKey(db: Db, key: string): Promise<{ id: number; name: string } | undefined> {
  const [studio] = await db
    .select({ id: t.studios.id, name: t.studios.name })
    .from(t.studios)
    .where(eq(t.studios.keyHash, hashToken(key)));
  return studio;
}
