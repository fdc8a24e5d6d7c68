// The creator's profile as a panel over the feed (spec §2: it slides in, pushes the profile URL and closes
// on back). The profile's URL is pushed with the feed's location in its history state, so the router keeps
// rendering the feed underneath (it stays mounted, its video where it was) and the panel on top; a reload or
// a shared link of the same URL opens the profile as a screen of its own.
import { atom } from 'jotai';
import { createContext, useContext } from 'react';
import { type Location, type NavigationType, useLocation, useNavigationType } from 'react-router';

export interface PanelState {
  /** The location the panel was opened over. */
  background: Location;
}

export const backgroundOf = (location: Location): Location | undefined =>
  (location.state as Partial<PanelState> | null)?.background;

/** Link state that opens `/{slug}` as a panel over the screen on show. */
export function usePanelState(): PanelState {
  const location = useLocation();
  // Opened from within a panel (a creator's link to another), the feed stays the background.
  return { background: backgroundOf(location) ?? location };
}

/** True while a profile panel covers the feed: the video underneath pauses and keys belong to the panel. */
export const profilePanelOpenAtom = atom(false);

/**
 * The router renders the screens for an explicit location (the background, or the current one), and under
 * an explicit location react-router reports every navigation as POP. Screens that tell a return (POP) from
 * a new visit read the real type here.
 */
export const NavigationTypeContext = createContext<NavigationType | undefined>(undefined);

export function useRealNavigationType(): NavigationType {
  const fromRouter = useNavigationType();
  return useContext(NavigationTypeContext) ?? fromRouter;
}
