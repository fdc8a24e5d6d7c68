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

/** How often an idle worker looks for a job nothing woke it for (see startJobs). */
export const POLLING_INTERVAL_SECONDS = 2;

export async function startJobs(database: Database): Promise<Jobs> {
  const common = {
    // Cron scheduling needs a clock monitor we do not use; maintenance (expiry, archiving) stays on.
    schedule: false,
    // How soon an idle worker finds a job that no worker of this process was told about: one another node
    // sent, or a retry whose delay has passed. A job sent from this process wakes its workers at once, and a
    // worker that finished a job looks for the next one at once (work() below), so this is only the idle
    // poll: seven workers each asking every 0.5 s took 43 % of an e2e server's working time on PGlite, whose
    // one connection every request then waited behind. pg-boss's default.
    pollingIntervalSeconds: POLLING_INTERVAL_SECONDS,
  } as const;
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({ ...common, connectionString: database.connectionString, max: 4 })
      : new PgBoss({ ...common, db: { executeSql: (text, values) => database.executeSql(text, values) } });
  boss.on('error', (err) => console.error('[jobs]', err.message));
  await boss.start();

  const created = new Set<string>();
  /** This process's workers by queue, to wake them when a job is sent here. */
  const workers = new Map<string, string[]>();
  const wake = (queue: string) => {
    for (const id of workers.get(queue) ?? []) boss.notifyWorker(id);
  };
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
      const id = await boss.send(spec.name, data, options ?? {});
      wake(spec.name);
      return id;
    },
    async work<T>(spec: QueueSpec, handler: JobHandler<T>) {
      await ensureQueue(spec);
      // pg-boss 10 has no per-worker concurrency option: one worker per slot gives the same effect.
      const ids = workers.get(spec.name) ?? [];
      workers.set(spec.name, ids);
      for (let i = 0; i < spec.concurrency; i++) {
        let id = '';
        id = await boss.work<T>(spec.name, { batchSize: 1, includeMetadata: true }, async ([job]) => {
          if (!job) return;
          try {
            await handler(job.data, { id: job.id, retryCount: job.retryCount });
          } finally {
            // pg-boss waits out the polling interval after a job that took less: a queue of short jobs (mails)
            // would go at one per interval. Woken, the worker asks for the next at once; only an empty answer
            // makes it wait.
            boss.notifyWorker(id);
          }
        });
        ids.push(id);
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
