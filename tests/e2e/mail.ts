// The mails the e2e server wrote as .eml files under $E2E_DATA_DIR/mail (no SMTP_URL): a test follows the
// link in one the way a person would tap it.
import fs from 'node:fs/promises';
import path from 'node:path';
import { loginTokenIn } from '../api/mail-helpers';

/**
 * The /login/{token} path of the newest mail to `to` with `subject`, written after `since` (ms since the
 * epoch; mail files are named by their time). Mails go out through the job queue: wait for it.
 */
export async function mailedLinkPath(
  to: string,
  subject: string,
  { since = 0, timeoutMs = 30_000 }: { since?: number; timeoutMs?: number } = {},
): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (await fs.readdir(dir).catch(() => [] as string[]))
      .filter((file) => file.endsWith('.eml') && Number(file.split('-')[0]) >= since)
      .sort()
      .reverse();
    for (const file of files) {
      const raw = await fs.readFile(path.join(dir, file), 'utf8');
      const header = raw.slice(0, raw.search(/\r?\n\r?\n/));
      if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'im').test(header)) continue;
      if (!new RegExp(`^Subject: ${subject}`, 'im').test(header)) continue;
      const token = loginTokenIn(raw);
      if (token) return `/login/${token}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail '${subject}' to ${to} in ${dir}`);
}

/** An address and a username no earlier run has used. */
export function unique(prefix: string) {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { email: `${prefix}.${id}@example.test`, username: `${prefix}_${id}` };
}
