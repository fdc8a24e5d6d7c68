import { useSetAtom } from 'jotai';
import { Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Video } from '../../../contract';
import { currentVideoAtom } from '../../../state/preferences';
import { showToastAtom } from '../../../state/toast';
import { lazyComponent } from '../../../ui/lazyComponent';
import { patchVideoAtom } from '../feedAtoms';
import { SELECTED_MESSAGE, shareVideo } from '../sheets/share';
import type { SlotAction } from './SlotActions';

// Sheets load on demand: their code is not part of the first video's download. The rating prompt opens by
// itself, a few videos in: the feed asks for its code once the video on screen has buffered enough
// (`preloadActionSheets`).
const actionSheets = () => import('../sheets/ActionSheets');
const MoreSheet = lazyComponent(() => actionSheets().then((m) => m.MoreSheet));
const RateSheet = lazyComponent(() => actionSheets().then((m) => m.RateSheet));
export const RatingBar = lazyComponent(() => actionSheets().then((m) => m.RatingBar));
export const preloadActionSheets = () => {
  for (const sheet of [MoreSheet, RateSheet, RatingBar]) sheet.preload().catch(() => undefined);
};
/** The rating prompt can open in the commit of a move (its code is in). */
export const ratingPromptReady = () => RateSheet.ready();
const ReportSheet = lazyComponent(() => import('../sheets/ReportSheet').then((m) => m.ReportSheet));
const PreferencesSheet = lazyComponent(() =>
  import('../sheets/PreferencesSheet').then((m) => m.PreferencesSheet),
);

export type OpenSheet = { kind: SlotAction | 'report'; video: Video } | null;

/** The sheet open over the feed, and how one ends: a toast, and a rating marked on the video at once. */
export function useFeedSheet() {
  const [sheet, setSheet] = useState<OpenSheet>(null);
  const showToast = useSetAtom(showToastAtom);
  const patchVideo = useSetAtom(patchVideoAtom);
  // Spec §9 toasts: a confirmation goes in 1.5 s; 'Report sent' closes a long form, so it stays 3 s.
  const done = (message: string | null, long = false) => {
    setSheet(null);
    if (message) showToast(message, { long });
  };
  const rated = (video: Video, message: string) => {
    patchVideo(video.id, { isRated: true });
    done(message);
  };
  return { sheet, setSheet, done, rated };
}

/** Renders the open sheet: more actions (select, share, report), report, rate, preferences. */
export function FeedSheets({
  state: { sheet, setSheet, done, rated },
  guest,
}: {
  state: ReturnType<typeof useFeedSheet>;
  guest: boolean;
}) {
  const navigate = useNavigate();
  const selectVideo = useSetAtom(currentVideoAtom);
  const close = () => setSheet(null);
  if (!sheet) return null;
  const { video } = sheet;
  return (
    <Suspense fallback={null}>
      {sheet.kind === 'more' && (
        <MoreSheet
          onClose={close}
          onChoose={(choice) => {
            if (choice === 'report') setSheet({ kind: 'report', video });
            else if (choice === 'share') void shareVideo(video).then(done);
            else {
              selectVideo({ id: video.id, slug: video.slug });
              done(SELECTED_MESSAGE);
              navigate(`/video/${video.id}/${video.slug}`);
            }
          }}
        />
      )}
      {sheet.kind === 'report' && (
        <ReportSheet
          videoId={video.id}
          guest={guest}
          onClose={close}
          onSent={(message) => done(message, true)}
        />
      )}
      {sheet.kind === 'rate' && (
        <RateSheet video={video} guest={guest} onClose={close} onRated={(message) => rated(video, message)} />
      )}
      {sheet.kind === 'settings' && <PreferencesSheet onClose={close} />}
    </Suspense>
  );
}
