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
}
