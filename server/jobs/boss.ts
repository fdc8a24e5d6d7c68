import PgBoss from 'pg-boss';
import type { Database } from '../db/client';

export type JobHandler<T> = (data: T, job: { id: string; retryCount: number }) => Promise<void>;

export interface QueueSpec {
  name: string;
  /** Media jobs run for minutes; a job whose worker died is retried once this has passed. */
  expireInSeconds: number;
  retryLimit: number;
  /** Parallel jobs of this queue in this process (CPU-bound ffmpeg: at most the core count). */
  concurrency: number;
  /** Wait before a failed job runs again (pg-boss default: at once). */
  retryDelaySeconds?: number;
}

export interface Jobs {
  boss: PgBoss;
  /** A spec (rather than a bare name) creates the queue with its expiry and retries if it is new. */
  send<T extends object>(
    queue: string | QueueSpec,
    data: T,
    options?: PgBoss.SendOptions,
  ): Promise<string | null>;
  work<T>(spec: QueueSpec, handler: JobHandler<T>): Promise<void>;
  /** Resolves when no job of `queue` is waiting or running (used by seeding and tests). */
  idle(queue: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startJobs(database: Database): Promise<Jobs> {
  const common = {
    // Cron scheduling needs a clock monitor we do not use; maintenance (expiry, archiving) stays on.
    schedule: false,
    pollingIntervalSeconds: 0.5,
  } as const;
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({ ...common, connectionString: database.connectionString, max: 4 })
      : new PgBoss({ ...common, db: { executeSql: (text, values) => database.executeSql(text, values) } });
  boss.on('error', (err) => console.error('[jobs]', err.message));
  await boss.start();

  const created = new Set<string>();
  const ensureQueue = async (spec: Pick<QueueSpec, 'name'> & Partial<QueueSpec>) => {
    if (created.has(spec.name)) return;
    const options: PgBoss.Queue = { name: spec.name, policy: 'standard' };
    if (spec.expireInSeconds) options.expireInSeconds = spec.expireInSeconds;
    if (spec.retryLimit !== undefined) options.retryLimit = spec.retryLimit;
    if (spec.retryDelaySeconds !== undefined) options.retryDelay = spec.retryDelaySeconds;
    if (!(await boss.getQueue(spec.name))) await boss.createQueue(spec.name, options);
    created.add(spec.name);
  };

  return {
    boss,
    async send(queue, data, options) {
      const spec = typeof queue === 'string' ? { name: queue } : queue;
      await ensureQueue(spec);
      return boss.send(spec.name, data, options ?? {});
    },
    async work<T>(spec: QueueSpec, handler: JobHandler<T>) {
      await ensureQueue(spec);
      // pg-boss 10 has no per-worker concurrency option: one worker per slot gives the same effect.
      for (let i = 0; i < spec.concurrency; i++) {
        await boss.work<T>(spec.name, { batchSize: 1, includeMetadata: true }, async ([job]) => {
          if (!job) return;
          await handler(job.data, { id: job.id, retryCount: job.retryCount });
        });
      }
    },
    async idle(queue) {
      for (;;) {
        const size = await boss.getQueueSize(queue, { before: 'completed' });
        if (size === 0) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
