// Every test file starts from the migrated database, whatever the file before it wrote: on PGlite the worker
// reuses one emptied database (pglite-pool.ts), on PostgreSQL each file gets a new copy of the template.
import { expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { createTestContext, insertUser, type TestContext } from './helpers';

async function bossSchemas(ctx: TestContext) {
  const { rows } = await ctx.database.executeSql(
    `select count(*)::int as n from information_schema.schemata where schema_name = 'pgboss'`,
  );
  return (rows[0] as { n: number } | undefined)?.n;
}

it("starts the next file with none of the last one's rows, sequences or jobs, and refuses the old handle", async () => {
  const first = await createTestContext({ jobs: true });
  const [window] = await first.database.db.select().from(t.weeklyWindow);
  const user = await insertUser(first);
  // Append-only by a trigger in the app; the reset must still take it away.
  await first.database.db
    .insert(t.auditLog)
    .values({ actor: 'cli', action: 'test', targetType: 'user', targetId: String(user.id) });
  await first.database.db.update(t.weeklyWindow).set({ countedAfter: new Date('2031-01-01T00:00:00Z') });
  expect(await bossSchemas(first)).toBe(1);
  await first.close();
  await expect(first.database.db.select().from(t.users)).rejects.toThrow();

  const second = await createTestContext();
  try {
    expect(await second.database.db.select().from(t.users)).toEqual([]);
    expect(await second.database.db.select().from(t.auditLog)).toEqual([]);
    expect(await second.database.db.select().from(t.weeklyWindow)).toEqual([window]);
    // Ids count from where the image left them, as on a fresh copy.
    expect((await insertUser(second)).id).toBe(user.id);
    // pg-boss's schema is its start's to install, with its queues and jobs.
    expect(await bossSchemas(second)).toBe(0);
  } finally {
    await second.close();
  }
});
