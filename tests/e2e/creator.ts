// Creators for the creator-side specs: a model registered through the API and signed in with the link of its
// verification mail (as a new creator would), and the operator CLI run against the e2e server's data
// directory while that server runs.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, Page } from 'playwright/test';
import { loginTokenIn } from '../api/mail-helpers';

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export interface Creator {
  id: number;
  email: string;
  username: string;
  name: string;
  bearer: { Authorization: string };
  /** What the app keeps under `shortcams.auth`. */
  auth: string;
}

async function mailTo(address: string, timeoutMs = 30_000): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await fs.readdir(dir).catch(() => [] as string[]);
    for (const file of files) {
      const raw = await fs.readFile(path.join(dir, file), 'utf8');
      if (raw.includes(address)) return raw;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail to ${address} in ${dir}`);
}

/** POST /v1/register as a model, then the mailed /login/{token} link: a creator whose check is 'none'. */
export async function registerModel(request: APIRequestContext, name = 'Nova Reyes'): Promise<Creator> {
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const email = `nova.${stamp}@e2e.test`;
  const username = `nova_${stamp}`;
  const res = await request.post('/v1/register', {
    data: {
      type: 'model',
      name,
      username,
      email,
      password: 'demo-password-1',
      password_confirmation: 'demo-password-1',
      gender: 'm',
      country: 'DE',
      phone_number: '+49 30 1234567',
      terms: true,
    },
  });
  if (res.status() !== 201) throw new Error(`register: ${res.status()} ${await res.text()}`);
  const token = loginTokenIn(await mailTo(email));
  const login = await request.post('/v1/login/token', { data: { token } });
  if (!login.ok()) throw new Error(`login link: ${login.status()}`);
  const body = await login.json();
  return {
    id: body.user.id,
    email,
    username,
    name,
    bearer: { Authorization: `Bearer ${body.access_token}` },
    auth: JSON.stringify({ accessToken: body.access_token, userId: body.user.id, userType: body.user.type }),
  };
}

/** Keeps every page load of `page` signed in as `creator` ("remember me"). */
export async function keepSignedInAs(page: Page, creator: { auth: string }) {
  await page.addInitScript((value) => localStorage.setItem('shortcams.auth', value), creator.auth);
}

/** `npm run admin -- …args` with the running e2e server's DATA_DIR: its lines of output. */
export async function admin(...args: string[]): Promise<string[]> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR };
  delete env.DATABASE_URL;
  const { stdout } = await exec('npm', ['run', '--silent', 'admin', '--', ...args], { cwd: root, env });
  return stdout.trim().split('\n');
}
