import { useCallback } from 'react';
import { useLocation } from 'react-router';

/**
 * Whether the browser's address is still this screen's. A link followed to a lazy screen changes the address at
 * once, but the screen it leaves stays mounted until the new screen's code is in (the navigation is a
 * transition): a timer of the old screen that navigates (a search's pause, a redirect) must not act then, or it
 * takes the viewer back from where they chose to go.
 */
export function useStillOnScreen(): () => boolean {
  const { pathname } = useLocation();
  return useCallback(() => window.location.pathname === pathname, [pathname]);
}
