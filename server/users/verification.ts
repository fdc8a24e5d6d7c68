// Identity verification requests: the operator's queue (server/operator.ts) reads what these write.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';

export type VerificationRequest = Omit<
  typeof t.verificationRequests.$inferInsert,
  'id' | 'userId' | 'status'
>;

/** The request and the creator's `pending` state land together, or neither does. */
export async function submitVerification(db: Db, userId: number, request: VerificationRequest) {
  await db.transaction(async (tx) => {
    await tx.insert(t.verificationRequests).values({ ...request, userId });
    await tx
      .update(t.users)
      .set({ verificationStatus: 'pending', updatedAt: new Date() })
      .where(eq(t.users.id, userId));
  });
}
