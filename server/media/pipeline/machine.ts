// A video's media as one table of states and events: the legal moves of the pipeline are read here, in one
// place, and tested without a database (tests/unit/media-machine.test.ts). The stages and the lease still
// move a row with one guarded UPDATE each (`where status in (…)`), because several workers race for the same
// video; this table is where those guards come from (`movesOf`), so a move the table does not list cannot be
// written. The operators' review is a machine of its own (server/admin/review-machine.ts).
import type { VideoRow } from '../../db/schema';
import type { Stage } from './queues';

type Status = VideoRow['status'];

/**
 * Where a video's media stands. Four are the row's status as it is; an approved video is `building` while
 * its MP4 or higher renditions are still to come (its media heartbeat is set) and `published` once all are
 * out. A row that is `deleting` or `rejected` has left the pipeline: no event moves it, and a job that meets
 * one ends without touching it.
 */
export type MediaState = 'uploaded' | 'preprocess' | 'processing' | 'building' | 'published' | 'error';

export type MediaEvent =
  /** A preprocess job takes the video (probe, thumbnail). */
  | 'claimPreprocess'
  /** A process job takes it (the lowest rendition and the MP4). */
  | 'claimProcess'
  /** A ladder job takes it (the higher renditions). */
  | 'claimLadder'
  /** The lowest rendition is out: the video plays from now on. */
  | 'lowestPublished'
  /** The MP4 and every rendition of the ladder are out. */
  | 'ladderDone'
  /** The file is refused, or the jobs ran out of attempts. */
  | 'fail';

/**
 * Every legal move; an event missing from a state's row is refused (the guarded UPDATE finds no row). A stage
 * may claim again the state it left behind: that is a retry after a throw, or a sweep's hand-over after a
 * worker died.
 */
export const MEDIA_TABLE: Record<MediaState, Partial<Record<MediaEvent, MediaState>>> = {
  uploaded: { claimPreprocess: 'preprocess', fail: 'error' },
  preprocess: { claimPreprocess: 'preprocess', claimProcess: 'processing', fail: 'error' },
  processing: { claimProcess: 'processing', lowestPublished: 'building', fail: 'error' },
  // A process job retried after the approval finishes its part without going back to processing; a failure
  // now keeps what plays, ending the ladder with the renditions published so far.
  building: { claimProcess: 'building', claimLadder: 'building', ladderDone: 'published', fail: 'published' },
  published: {},
  error: {},
};

/** The state after `event`, or undefined when the move is not allowed (or the row left the pipeline). */
export function nextMedia(state: MediaState | undefined, event: MediaEvent): MediaState | undefined {
  return state === undefined ? undefined : MEDIA_TABLE[state][event];
}

/**
 * The moves `event` allows, grouped by the state they lead to, in table order: one guarded UPDATE each, tried
 * in turn until one finds the row.
 */
export function movesOf(event: MediaEvent): { from: MediaState[]; to: MediaState }[] {
  const moves: { from: MediaState[]; to: MediaState }[] = [];
  for (const [state, row] of Object.entries(MEDIA_TABLE) as [
    MediaState,
    (typeof MEDIA_TABLE)[MediaState],
  ][]) {
    const to = row[event];
    if (to === undefined) continue;
    const move = moves.find((m) => m.to === to);
    if (move) move.from.push(state);
    else moves.push({ from: [state], to });
  }
  return moves;
}

/** Every state `event` may leave, whatever it leads to. */
export const fromOf = (event: MediaEvent): MediaState[] => movesOf(event).flatMap((m) => m.from);

/**
 * The stage whose job moves a video on from each state, for the sweep that hands a stuck video to a new job.
 * A video stuck in preprocess runs preprocess again (its thumbnail may be missing); a building one gets a
 * ladder job, which also does whatever the process stage left undone.
 */
export const STAGE_OF: Partial<Record<MediaState, Stage>> = {
  uploaded: 'preprocess',
  preprocess: 'preprocess',
  processing: 'process',
  building: 'ladder',
};

/** The event by which a stage's job takes a video. */
export const CLAIM_OF: Record<Stage, MediaEvent> = {
  preprocess: 'claimPreprocess',
  process: 'claimProcess',
  ladder: 'claimLadder',
};

/** The row's status in a state: an approved video is building or published by its heartbeat alone. */
export const statusOf = (state: MediaState): Status =>
  state === 'building' || state === 'published' ? 'approved' : state;

/** The state of a row, or undefined for one that has left the pipeline (deleting, rejected). */
export function mediaStateOf(row: { status: Status; mediaHeartbeatAt: Date | null }): MediaState | undefined {
  switch (row.status) {
    case 'approved':
      return row.mediaHeartbeatAt === null ? 'published' : 'building';
    case 'deleting':
    case 'rejected':
      return undefined;
    default:
      return row.status;
  }
}

/** A video whose media is still being made and does not play yet: the statuses a stage's job may find. */
export const UNFINISHED: Status[] = (Object.keys(STAGE_OF) as MediaState[])
  .filter((s) => statusOf(s) !== 'approved')
  .map(statusOf);
