// Accounts for the settings and list specs: demo accounts signed in on a page (with the token the page will
// use, so a test can put back what it changed through the API), and fresh viewers registered through the API
// for tests that need an account nobody else's spec relies on.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, expect, type Page } from 'playwright/test';
import { signedIn } from './sign-in';

export const DEMO_PASSWORD = 'demo-password';

/** The demo accounts these specs change (and put back): server/seed/content.ts. */
export const demo = {
  /** A model whose verification is pending: no videos, so its changes touch no feed. */
  pendingModel: 'echo.lane@demo.test',
  /** A channel (colour #8b5cf6). */
  channel: 'neon.district@demo.test',
  /** A plain user. */
  viewer: 'sam.viewer@demo.test',
} as const;

export interface Member {
  id: number;
  bearer: { Authorization: string };
}

/** Signs `email` in on `page` (every load of it) and returns the very token the page uses. */
export async function memberOn(page: Page, request: APIRequestContext, email: string): Promise<Member> {
  await watchToasts(page);
  return signedIn(page, request, email);
}

/**
 * Records every toast text the page shows. A toast stays 1.5 s (spec); on a loaded machine a poll for it on
 * screen can miss that window, a record of what was shown cannot, and it still proves the words were seen.
 */
export async function watchToasts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    new MutationObserver(() => {
      for (const el of Array.from(document.querySelectorAll('.app-toast'))) {
        const text = el.textContent?.trim();
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/**
 * The toasts' live region. Not any `status`: a spinner (a buffering video, a grid loading its page) is one too,
 * and may show at the same moment.
 */
export const toast = (page: Page) => page.locator('.app-toast-region');

/** The toast texts shown on this load of the page, oldest first (needs watchToasts or memberOn). */
export const toastsSeen = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { __toasts?: string[] }).__toasts ?? []);

export async function ownProfile(request: APIRequestContext, member: Member) {
  const res = await request.get('/v1/profile', { headers: member.bearer });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

/** POST /v1/profile as `member`, for putting back what a test changed. */
export async function setProfile(request: APIRequestContext, member: Member, body: object) {
  const res = await request.post('/v1/profile', { headers: member.bearer, data: body });
  expect(res.status(), JSON.stringify(await res.json())).toBe(200);
  return (await res.json()).user;
}

/** A viewer account of its own (POST /v1/register, then POST /v1/login), signed in on `page` if given. */
export async function freshViewer(request: APIRequestContext, page?: Page) {
  const tag = randomBytes(4).toString('hex');
  const email = `viewer.${tag}@e2e.test`;
  const password = `pw-${tag}-secret`;
  const register = await request.post('/v1/register', {
    data: { type: 'user', name: `Viewer ${tag}`, email, password, password_confirmation: password },
  });
  expect(register.status()).toBe(201);
  const login = await request.post('/v1/login', { data: { email, password } });
  expect(login.status()).toBe(200);
  const body = await login.json();
  const auth = JSON.stringify({ accessToken: body.access_token, userId: body.user.id, userType: 'user' });
  if (page) await page.addInitScript((value) => localStorage.setItem('shortcams.auth', value), auth);
  return {
    id: body.user.id as number,
    email,
    password,
    bearer: { Authorization: `Bearer ${body.access_token}` },
  };
}

/** Mails the server wrote as .eml files (no SMTP_URL in the e2e server), newest last. */
export async function mailsTo(address: string): Promise<string[]> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  const texts = await Promise.all(names.map((n) => fs.readFile(path.join(dir, n), 'utf8')));
  return texts.filter((raw) => new RegExp(`^To: .*${address.replace(/\./g, '\\.')}`, 'mi').test(raw));
}

/** A client address of its own (the e2e server trusts X-Forwarded-For from loopback), for rate limits. */
export const ownAddress = () => `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
