// Opens everything the app needs (database, migrations, jobs, storage). Shared by main.ts, the CLI and
// the tests so that they all start the product the same way.

import { type Config, loadConfig } from './config';
import { openDatabase } from './db/client';
import { startPgliteVacuum } from './db/vacuum';
import type { AppDeps } from './deps';
import { type Jobs, startJobs } from './jobs/boss';
import { createDeliver, MAIL_QUEUE, type MailMessage } from './mail/mailer';
import { cleanupVideo, VIDEO_CLEANUP_QUEUE } from './media/cleanup';
import { DEMO_MEDIA_QUEUE, generateDemoVideo } from './media/demo';
import { configureBinaries } from './media/ffmpeg';
import { startMediaWorkers } from './media/pipeline';
import { createStorage } from './media/storage';
import { trackLikers } from './videos/likers';
import { startWeeklyExpiry } from './videos/weekly';

export interface Runtime extends AppDeps {
  jobs: Jobs;
  /**
   * Starts the background work (the job workers: transcodes, mails, demo media, the media sweep; and the
   * database chores) when `deferBackground` left it for later; otherwise, or called again, a no-op.
   */
  startBackground(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the database (migrated), the storage and the job queue. The background work starts here too,
 * unless `deferBackground`: then `startBackground()` starts it, so that the server can listen first (issue
 * 32: a restarted node answers its first request within a second; the queue keeps what arrives meanwhile).
 */
export async function openRuntime(
  overrides: Partial<Config> = {},
  opts: { deferBackground?: boolean } = {},
): Promise<Runtime> {
  const config = { ...loadConfig(), ...overrides };
  configureBinaries(config);
  // An operator command that opened the PGlite files itself (no server was running) finishes within
  // seconds: wait for it rather than fail the start.
  const database = await openDatabase({ ...config, lock: { role: 'server', waitMs: 30_000 } });
  await database.migrate();
  await trackLikers(database);
  const storage = createStorage(config);
  const jobs = await startJobs(database);
  let stopVacuum = async () => {};
  let stopWeekly = async () => {};
  let stopSweep = () => {};
  let background: Promise<void> | undefined;
  const startBackground = () => {
    background ??= (async () => {
      stopVacuum = startPgliteVacuum(database, (message) => console.error(`[db] ${message}`));
      // Every node, workers or not: the nodes take turns on the window, and one that finds it done does
      // nothing.
      stopWeekly = startWeeklyExpiry(database, (message) => console.error(`[db] ${message}`));
      if (!config.runWorkers) return;
      await jobs.work<{ videoId: number }>(DEMO_MEDIA_QUEUE, ({ videoId }) =>
        generateDemoVideo({ db: database.db, storage }, videoId),
      );
      await jobs.work<{ videoId: number }>(VIDEO_CLEANUP_QUEUE, ({ videoId }) =>
        cleanupVideo({ db: database.db, storage }, videoId),
      );
      const deliver = createDeliver(config);
      await jobs.work<MailMessage>(MAIL_QUEUE, (message) => deliver(message));
      stopSweep = await startMediaWorkers({
        database,
        db: database.db,
        storage,
        jobs,
        staleSeconds: config.mediaStaleSeconds,
        uploadReview: config.uploadReview,
        log: (message) => console.error(`[media] ${message}`),
      });
    })();
    return background;
  };
  if (!opts.deferBackground) await startBackground();
  return {
    config,
    database,
    storage,
    jobs,
    startBackground,
    async close() {
      // Workers still starting would register on a stopped queue.
      await background?.catch(() => undefined);
      stopSweep();
      await jobs.stop();
      await stopVacuum();
      await stopWeekly();
      await database.close();
    },
  };
}
