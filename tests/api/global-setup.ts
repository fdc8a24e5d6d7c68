// Every API test file builds its app on a database of its own, and making one from nothing (initdb, then the
// migrations) was most of a small file's time: 2.9 s on PGlite against 0.8 s to load a migrated copy. So the
// migrations run once per suite here, and each file starts from their result: a PGlite data directory's
// tarball, or a PostgreSQL template database. helpers.ts reads where from these variables, set before the
// workers start; without them (a bench, a script) it migrates a fresh database as before.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/client';
import { createPostgresDatabase, PG_TEMPLATE_VAR, PGLITE_IMAGE_VAR } from './helpers';

export default async function setup() {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const template = await createPostgresDatabase(adminUrl);
    const database = await openDatabase({ databaseUrl: template.url, dataDir: os.tmpdir() });
    try {
      await database.migrate();
    } finally {
      // A template must have nobody connected while databases are made from it.
      await database.close();
    }
    process.env[PG_TEMPLATE_VAR] = template.name;
    return () => template.drop();
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-api-image-'));
  const database = await openDatabase({ databaseUrl: 'memory://', dataDir: dir });
  try {
    await database.migrate();
    const dumped = await database.dumpPglite?.(async () => undefined);
    if (!dumped) throw new Error('PGlite gave no data directory');
    const file = path.join(dir, 'migrated.tar');
    await fs.writeFile(file, Buffer.from(await dumped.tarball.arrayBuffer()));
    process.env[PGLITE_IMAGE_VAR] = file;
  } finally {
    await database.close();
  }
  return () => fs.rm(dir, { recursive: true, force: true });
}
