import 'fake-indexeddb/auto';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { connectLayers } from '../../src/app/wiring';

// As src/main.tsx does: the API client gets the identity and the network hooks from the app.
connectLayers();

afterEach(() => {
  cleanup();
});
