/**
 * Compact counter as the spec fixes it: K from 1000, M from 999 500, so a value never reads "1000K".
 * One decimal at most, trailing ".0" dropped.
 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value) || value < 1000) return String(Math.max(0, Math.round(value || 0)));
  if (value < 999_500) return `${Math.round(value / 100) / 10}K`;
  return `${Math.round(value / 100_000) / 10}M`;
}

/** Seconds as mm:ss; minutes keep growing past 59 because uploads are capped at 30 minutes. */
export function formatDuration(seconds: number): string {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

/** The picture a grid shows for a video: its tile where the server made one, else the full poster. */
export const tileOf = (video: { tileUrl?: string | null; thumbnailUrl: string | null }) =>
  video.tileUrl ?? video.thumbnailUrl;
