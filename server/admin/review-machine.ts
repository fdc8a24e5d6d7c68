// The review of a video, and of an identity check, as tables of states and events: the legal moves are read
// here, in one place, and tested without a database (tests/unit/review-machine.test.ts). The services in
// server/admin/moderation.ts ask `nextReview` before they write, and write only what it answers.
//
// A video's `review` is apart from its `status`: the status says where its media stands (uploaded …
// approved = playable), the review where it stands with the operators. Only an operator's rejection touches
// the status, which becomes `rejected`, the word the creator already sees in their grid.

export type ReviewState = 'none' | 'held' | 'open' | 'approved' | 'rejected';
export type UploadReview = 'before' | 'after';

export type ReviewEvent =
  /** The lowest rendition of an upload is out: it joins the queue, held back or public by the mode. */
  | { type: 'mediaReady'; mode: UploadReview }
  | { type: 'approve' }
  /** From the review queue: the video never (or no longer) goes out. */
  | { type: 'reject' }
  /** From the reports queue: a video that is (or may be) out is taken down. */
  | { type: 'takeDown' };

type Move = ReviewState | ((event: ReviewEvent) => ReviewState);

/**
 * Every legal move; an event missing from a state's row is refused. `none` is a video nobody queued (the demo
 * seed, videos from before review existed): it may only be taken down. A decision is final here: a video
 * rejected by mistake is uploaded again (reinstating is left for later, see README).
 */
export const REVIEW_TABLE: Record<ReviewState, Partial<Record<ReviewEvent['type'], Move>>> = {
  none: {
    mediaReady: (e) => (e.type === 'mediaReady' && e.mode === 'after' ? 'open' : 'held'),
    takeDown: 'rejected',
  },
  held: { approve: 'approved', reject: 'rejected', takeDown: 'rejected' },
  open: { approve: 'approved', reject: 'rejected', takeDown: 'rejected' },
  approved: { takeDown: 'rejected' },
  rejected: {},
};

export interface ReviewOutcome {
  review: ReviewState;
  /** The status the video takes with it, when the move changes it. */
  status?: 'rejected';
  /** Whether the video waits in the review queue afterwards. */
  queued: boolean;
}

/** The state after `event`, or undefined when the move is not allowed from `state`. */
export function nextReview(state: ReviewState, event: ReviewEvent): ReviewOutcome | undefined {
  const move = REVIEW_TABLE[state][event.type];
  if (move === undefined) return undefined;
  const review = typeof move === 'function' ? move(event) : move;
  return {
    review,
    ...(review === 'rejected' ? { status: 'rejected' as const } : {}),
    queued: review === 'held' || review === 'open',
  };
}

/**
 * The columns an upload takes when its lowest rendition is out (server/media/pipeline/ writes them with
 * `approved`): the first move of every upload's review.
 */
export function queueOnMediaReady(mode: UploadReview, now: Date) {
  const next = nextReview('none', { type: 'mediaReady', mode });
  return next ? { review: next.review, reviewQueuedAt: now } : {};
}

// ---- identity checks -------------------------------------------------------------------------------------

export type IdentityState = 'none' | 'pending' | 'approved' | 'rejected';
export type IdentityEvent = 'submit' | 'approve' | 'reject';

/** A creator submits (first time or after a rejection); an operator decides a pending request once. */
export const IDENTITY_TABLE: Record<IdentityState, Partial<Record<IdentityEvent, IdentityState>>> = {
  none: { submit: 'pending' },
  rejected: { submit: 'pending' },
  pending: { approve: 'approved', reject: 'rejected' },
  approved: {},
};

export function nextIdentity(state: IdentityState, event: IdentityEvent): IdentityState | undefined {
  return IDENTITY_TABLE[state][event];
}
