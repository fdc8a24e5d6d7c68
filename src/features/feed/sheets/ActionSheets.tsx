import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { errorText } from '../../../api/errors';
import { postVideoRating } from '../../../api/videos';
import type { Video } from '../../../contract';
import type { IconProps } from '../../../ui/icons';
import { CheckCircleIcon, FlagIcon, ShareIcon } from '../../../ui/more-icons';
import { Sheet } from '../../../ui/Sheet';
import { SignupSheet } from '../../../ui/SignupSheet';
import { RatingFace } from './RatingFace';
import './more-sheet.css';

export type MoreChoice = 'select' | 'share' | 'report';

const MORE_ITEMS: { choice: MoreChoice; label: string; note: string; Icon: (p: IconProps) => ReactNode }[] = [
  {
    choice: 'select',
    label: 'Select video',
    note: 'Restart your feed from this video',
    Icon: CheckCircleIcon,
  },
  { choice: 'share', label: 'Share', note: 'Send its link, or copy it', Icon: ShareIcon },
  { choice: 'report', label: 'Report', note: 'Tell us what is wrong with it', Icon: FlagIcon },
];

/**
 * More actions (spec §2: select, share, report). *Reading chosen* for 'select': the viewer picks this video,
 * as a tap on a grid tile does: it becomes the device's stored selection (spec §3 currentVideo, cleared by
 * any tab but home) and the feed restarts from it on the video's own link (the home feed with this video in
 * front), which a reload, Back or a bookmark keep. A bare "Select" told a viewer none of that: each entry
 * says what it does in a line under its name (its description, not part of the name).
 */
export function MoreSheet({ onChoose, onClose }: { onChoose: (c: MoreChoice) => void; onClose: () => void }) {
  const id = useId();
  return (
    <Sheet title="More" onClose={onClose}>
      <ul className="sheet-list more-list">
        {MORE_ITEMS.map(({ choice, label, note, Icon }) => (
          <li key={choice}>
            <button
              type="button"
              className="sheet-item more-item"
              aria-labelledby={`${id}-${choice}`}
              aria-describedby={`${id}-${choice}-note`}
              onClick={() => onChoose(choice)}
            >
              <span className="more-item-icon">
                <Icon />
              </span>
              <span className="more-item-text">
                <span id={`${id}-${choice}`} className="more-item-label">
                  {label}
                </span>
                <span id={`${id}-${choice}-note`} className="more-item-note">
                  {note}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Sheet>
  );
}

/** Spec §9: a scale of 5 faces, worst to best (drawn by RatingFace). */
const RATING_LABELS = ['Awful', 'Bad', 'Okay', 'Good', 'Love it'] as const;
/** Spec §9: the choice stays visible this long before the sheet closes. */
export const RATING_CLOSE_MS = 700;

/**
 * Choosing a face: guests are asked to sign up instead (spec §6: rating needs an account); a user's choice is
 * sent, stays highlighted for 700 ms, then `onRated` runs. Shared by the sheet and the rating-mode bar.
 */
function useRateVideo(video: Video, guest: boolean, onRated: (message: string) => void) {
  const [chosen, setChosen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [askLogin, setAskLogin] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const choose = async (rating: number) => {
    if (guest) {
      setAskLogin(true);
      return;
    }
    setChosen(rating);
    setError(null);
    try {
      await postVideoRating(video.id, rating);
      timer.current = setTimeout(() => onRated('Video rated'), RATING_CLOSE_MS);
    } catch (e) {
      setChosen(null);
      setError(errorText(e, { fallback: 'Request failed.' }));
    }
  };
  return { chosen, error, askLogin, closeLogin: () => setAskLogin(false), choose };
}

function RatingFaces({
  chosen,
  error,
  onChoose,
}: {
  chosen: number | null;
  error: string | null;
  onChoose: (rating: number) => void;
}) {
  return (
    <>
      <fieldset className="rate-faces" aria-label="Rating">
        {RATING_LABELS.map((label, i) => (
          <button
            key={label}
            type="button"
            aria-pressed={chosen === i + 1}
            aria-label={label}
            className="rate-face"
            disabled={chosen !== null}
            onClick={() => onChoose(i + 1)}
          >
            <RatingFace rating={(i + 1) as 1 | 2 | 3 | 4 | 5} />
          </button>
        ))}
      </fieldset>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

const RateSignup = ({ onClose }: { onClose: () => void }) => (
  <SignupSheet
    title="Rate videos"
    text="Create a free account to rate videos and get better recommendations."
    onClose={onClose}
  />
);

/** Rate a video from its sheet: the rate button, or the prompt that opens by itself. */
export function RateSheet({
  video,
  guest,
  onClose,
  onRated,
}: {
  video: Video;
  guest: boolean;
  onClose: () => void;
  onRated: (message: string) => void;
}) {
  const { chosen, error, askLogin, choose } = useRateVideo(video, guest, onRated);
  if (askLogin) return <RateSignup onClose={onClose} />;
  return (
    <Sheet title={video.isRated ? 'Video Rated' : 'Rate this video'} onClose={onClose}>
      <RatingFaces chosen={chosen} error={error} onChoose={(rating) => void choose(rating)} />
    </Sheet>
  );
}

/**
 * Rating mode (the "Unrated videos" feed): the faces sit on the video itself, and a choice moves on to the
 * next video, so rating a list is one tap per clip.
 */
export function RatingBar({
  video,
  guest,
  onRated,
}: {
  video: Video;
  guest: boolean;
  onRated: (message: string) => void;
}) {
  const { chosen, error, askLogin, closeLogin, choose } = useRateVideo(video, guest, onRated);
  return (
    <div className="rating-bar">
      <p className="rating-bar-title">{video.isRated ? 'Video Rated' : 'How was this video?'}</p>
      <RatingFaces chosen={chosen} error={error} onChoose={(rating) => void choose(rating)} />
      {askLogin && <RateSignup onClose={closeLogin} />}
    </div>
  );
}
