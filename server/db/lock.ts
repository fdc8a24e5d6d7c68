// PGlite is PostgreSQL compiled to run inside one process: it has no postmaster to stop a second process from
// opening the same files, and two writers would corrupt them. This lock file is that guard. Whoever opens a
// PGlite data directory (the server, or the operator CLI when no server runs) first creates `<dir>.lock`
// exclusively, with its pid; a lock whose pid is gone (a crash, a kill -9) is stale and taken over.
import fs from 'node:fs/promises';

export interface LockHolder {
  pid: number;
  role: string;
  since: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly file: string,
    readonly holder: LockHolder,
  ) {
    super(`${file} is held by the ${holder.role} (pid ${holder.pid}, since ${holder.since})`);
    this.name = 'DataDirBusyError';
  }
}

/** True while a process with this pid exists (EPERM: it exists but belongs to someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(
  file: string,
): Promise<{ raw: string; holder: LockHolder | undefined } | undefined> {
  const raw = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0)
      return { raw, holder: { pid: parsed.pid, role: String(parsed.role), since: String(parsed.since) } };
  } catch {
    // Written by a process that died between creating and writing it, or being written right now.
  }
  return { raw, holder: undefined };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the lock or throws DataDirBusyError once `waitMs` has passed with a live holder (0: at once). The
 * returned function releases it, and only if it is still this process's.
 */
export async function lockDataDir(
  file: string,
  role: string,
  { waitMs = 0 }: { waitMs?: number } = {},
): Promise<() => Promise<void>> {
  const deadline = Date.now() + waitMs;
  const mine = JSON.stringify({ pid: process.pid, role, since: new Date().toISOString() });
  // A lock file without a readable pid is given this long to be written before it counts as stale.
  let unreadableSince: number | undefined;
  for (;;) {
    try {
      await fs.writeFile(file, mine, { flag: 'wx', mode: 0o600 });
      return async () => {
        const current = await readHolder(file).catch(() => undefined);
        if (current?.raw === mine) await fs.rm(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const found = await readHolder(file);
    if (!found) continue;
    const { holder } = found;
    let stale = false;
    if (holder) {
      unreadableSince = undefined;
      stale = holder.pid !== process.pid && !alive(holder.pid);
    } else {
      unreadableSince ??= Date.now();
      stale = Date.now() - unreadableSince > 2000;
    }
    if (stale) {
      // Only the very lock judged stale is removed: a process that took it over meanwhile keeps it.
      const again = await readHolder(file);
      if (again?.raw === found.raw) await fs.rm(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new DataDirBusyError(file, holder ?? { pid: 0, role: 'unknown process', since: '?' });
    }
    await sleep(200);
  }
}
