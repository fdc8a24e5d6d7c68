import { createContext, useContext } from 'react';
import type { Dashboard } from '../../contract/admin';

/**
 * The dashboard's figures, read by the layout at each change of screen (one cheap call) for the badges of
 * its navigation, and shown in full by the dashboard. A decision asks for them again with `refresh`.
 */
export interface Counts {
  status: 'loading' | 'ready' | 'error';
  dashboard: Dashboard | null;
  error?: unknown;
  refresh: () => void;
}

export const CountsContext = createContext<Counts>({ status: 'loading', dashboard: null, refresh: () => {} });

export const useCounts = () => useContext(CountsContext);
