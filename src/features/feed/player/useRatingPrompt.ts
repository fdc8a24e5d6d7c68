import { useEffect, useRef } from 'react';
import type { Video } from '../../../contract';

const nextPromptAfter = () => 2 + Math.floor(Math.random() * 4);

/**
 * Rating prompt, the first reading of spec §5: after a random 2 to 5 videos, if the one on screen is unrated;
 * the video pauses under the prompt and plays on after it. Never in rating mode, over an ad or another sheet.
 */
export function useRatingPrompt({
  current,
  videos,
  off,
  sheetOpen,
  prompt,
}: {
  current: number;
  videos: Video[];
  off: boolean;
  sheetOpen: boolean;
  prompt: (video: Video) => void;
}) {
  const promptAfter = useRef(nextPromptAfter());
  const movedSincePrompt = useRef(0);
  const lastIndex = useRef(current);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a move of the feed counts, not a new `prompt` callback.
  useEffect(() => {
    if (lastIndex.current === current) return;
    lastIndex.current = current;
    movedSincePrompt.current++;
    const video = videos[current];
    if (off) return;
    if (movedSincePrompt.current >= promptAfter.current && video && !video.isRated && !sheetOpen) {
      movedSincePrompt.current = 0;
      promptAfter.current = nextPromptAfter();
      prompt(video);
    }
  }, [current, videos, sheetOpen, off]);
}
