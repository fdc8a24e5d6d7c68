import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { probeLink } from '../../../api/link';
import type { Video } from '../../../contract';
import { TUNNEL } from '../../../offline/tunnel/limits';
import { connectionInfo, defaultKeepSetting, mayKeep } from '../../../offline/tunnel/setting';
import { keptSnapshot, subscribeKept } from '../../../offline/tunnel/store';
import { linkDownAtom, linkUpAtom } from '../../../state/network';
import { keepOfflineAtom } from '../../../state/preferences';
import { playsHlsNatively } from './useSlotSource';

/** Videos the buffer keeps ahead of the one on screen: the feed's list must know that many. */
export const KEPT_AHEAD = TUNNEL.ahead;

// Its downloading half is not part of the first screen's code.
const loadKeeper = () => import('../../../offline/tunnel/keeper');

/**
 * The feed's side of the tunnel buffer (src/offline/tunnel): keeps the video on screen and the next ones on
 * the device while `ready` says the one on screen is safe, and tells which videos are kept and whether the
 * link is down. Each new video on screen takes a quick look at the link first: in a tunnel the browser still
 * says "online", and a kept video must not wait on a request that hangs.
 */
export function useTunnel(feed: string, videos: readonly Video[], current: number, ready: boolean) {
  const entries = useSyncExternalStore(subscribeKept, keptSnapshot);
  const kept = useMemo(() => new Set(entries.map((e) => e.id)), [entries]);
  const linkDown = useAtomValue(linkDownAtom);
  const linkUp = useAtomValue(linkUpAtom);
  const chosen = useAtomValue(keepOfflineAtom);
  const setting = chosen ?? defaultKeepSetting(connectionInfo());
  const readyRef = useRef(ready);
  readyRef.current = ready;

  useEffect(() => {
    const plan = {
      feed,
      videos,
      current,
      setting,
      ready: () => readyRef.current,
      withCurrent: !playsHlsNatively(),
    };
    loadKeeper().then(
      (keeper) => keeper.keepAhead(plan),
      () => undefined,
    );
  }, [feed, videos, current, setting]);
  useEffect(
    () => () => {
      loadKeeper().then(
        (keeper) => keeper.stopKeeping(),
        () => undefined,
      );
    },
    [],
  );

  const onScreen = videos[current]?.id;
  useEffect(() => {
    if (onScreen !== undefined) void probeLink();
  }, [onScreen]);

  // Whether the buffer is filling now: the next slot then waits for the kept copy instead of racing it.
  const keeping = mayKeep(setting, connectionInfo()) && !linkDown;
  return { kept, linkDown, linkUp, keeping };
}
