import 'fake-indexeddb/auto';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
});

// The files of a worker share one page and one module graph (isolate: false in vite.config.ts): what a file
// stubbed, spied on or faked ends with it, and the next file starts from the real globals.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
