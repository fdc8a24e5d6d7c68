import type { HashQueue } from './auth/hash-queue';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Jobs } from './jobs/boss';
import type { MediaStorage } from './media/storage';

/** What route modules get: built once in main.ts (or a test) and passed down, never imported globally. */
export interface AppDeps {
  config: Config;
  database: Database;
  storage: MediaStorage;
  /** Absent in processes that only serve the API without a job queue (some tests). */
  jobs?: Jobs | undefined;
  /**
   * The queue every password hash and check waits in (hash-queue.ts). Made from the config when absent; a
   * test passes its own so that it can hold the queue's slot and know who is waiting.
   */
  loginQueue?: HashQueue | undefined;
}
