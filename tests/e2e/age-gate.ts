// The app asks every new device to confirm 18+ before showing anything (remembered in IndexedDB). Tests
// and benchmarks confirm it once, through the real gate, and start their contexts from that answer.
import { type BrowserContextOptions, chromium } from 'playwright';
import { chromiumLaunchOptions } from './browser';

export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/** What storageState({ indexedDB: true }) adds per origin (Playwright's typings leave it out). */
interface IndexedDbSnapshot {
  name: string;
  stores: { name: string; records: { key?: unknown }[] }[];
}
type OriginSnapshot = StorageState['origins'][number] & { indexedDB?: IndexedDbSnapshot[] };

export const AGE_CONFIRM_BUTTON = 'I am 18 or older';

export async function confirmAgeOnce(baseURL: string): Promise<StorageState> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: AGE_CONFIRM_BUTTON }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // The answer is written to IndexedDB right after the click; wait until it is there.
    await page.waitForFunction(
      () =>
        new Promise<boolean>((resolve) => {
          const open = indexedDB.open('shortcams');
          open.onerror = () => resolve(false);
          open.onsuccess = () => {
            const get = open.result.transaction('kv').objectStore('kv').get('ageConfirmed');
            get.onsuccess = () => resolve(get.result === true);
            get.onerror = () => resolve(false);
          };
        }),
    );
    const state = await context.storageState({ indexedDB: true });
    // Only the answer travels: a shared guest id, liked list or coach-hint step would make every test the
    // same returning viewer.
    for (const origin of state.origins as OriginSnapshot[]) {
      origin.localStorage = [];
      origin.indexedDB = (origin.indexedDB ?? [])
        .filter((db) => db.name === 'shortcams')
        .map((db) => ({
          ...db,
          stores: db.stores
            .filter((store) => store.name === 'kv')
            .map((store) => ({ ...store, records: store.records.filter((r) => r.key === 'ageConfirmed') })),
        }));
    }
    return state;
  } finally {
    await browser.close();
  }
}
