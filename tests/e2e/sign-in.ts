// A demo account signed in the way the app remembers it ("remember me": localStorage), for tests that need a
// member rather than a guest.
import type { APIRequestContext, Page } from 'playwright/test';

export const DEMO_USER = 'sam.viewer@demo.test';

export async function signIn(request: APIRequestContext, email = DEMO_USER) {
  const res = await request.post('/v1/login', { data: { email, password: 'demo-password' } });
  if (!res.ok()) throw new Error(`sign-in of ${email} failed: ${res.status()}`);
  const body = await res.json();
  return {
    id: body.user.id as number,
    /** What the app stores under `shortcams.auth`. */
    auth: JSON.stringify({ accessToken: body.access_token, userId: body.user.id, userType: body.user.type }),
    bearer: { Authorization: `Bearer ${body.access_token}` },
  };
}

/** Signs in and keeps every page load of `page` signed in. */
export async function signedIn(page: Page, request: APIRequestContext, email = DEMO_USER) {
  const member = await signIn(request, email);
  await page.addInitScript((value) => localStorage.setItem('shortcams.auth', value), member.auth);
  return member;
}
