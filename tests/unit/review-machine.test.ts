// The review of a video and of an identity check, as the operators' services ask it (server/admin): every
// legal move and every refusal, without a database.
import { describe, expect, it } from 'vitest';
import {
  IDENTITY_TABLE,
  nextIdentity,
  nextReview,
  queueOnMediaReady,
  REVIEW_TABLE,
  type ReviewEvent,
  type ReviewState,
} from '../../server/admin/review-machine';

const events: ReviewEvent[] = [
  { type: 'mediaReady', mode: 'before' },
  { type: 'mediaReady', mode: 'after' },
  { type: 'approve' },
  { type: 'reject' },
  { type: 'takeDown' },
];
const label = (e: ReviewEvent) => (e.type === 'mediaReady' ? `mediaReady(${e.mode})` : e.type);

describe('video review', () => {
  it('answers every state and event as the table of issue 31 says', () => {
    const moves: Record<string, string> = {};
    for (const state of Object.keys(REVIEW_TABLE) as ReviewState[])
      for (const event of events) moves[`${state} ${label(event)}`] = nextReview(state, event)?.review ?? '-';
    expect(moves).toEqual({
      'none mediaReady(before)': 'held',
      'none mediaReady(after)': 'open',
      'none approve': '-',
      'none reject': '-',
      'none takeDown': 'rejected',
      'held mediaReady(before)': '-',
      'held mediaReady(after)': '-',
      'held approve': 'approved',
      'held reject': 'rejected',
      'held takeDown': 'rejected',
      'open mediaReady(before)': '-',
      'open mediaReady(after)': '-',
      'open approve': 'approved',
      'open reject': 'rejected',
      'open takeDown': 'rejected',
      'approved mediaReady(before)': '-',
      'approved mediaReady(after)': '-',
      'approved approve': '-',
      'approved reject': '-',
      'approved takeDown': 'rejected',
      'rejected mediaReady(before)': '-',
      'rejected mediaReady(after)': '-',
      'rejected approve': '-',
      'rejected reject': '-',
      'rejected takeDown': '-',
    });
  });

  it('gives a rejection the video status the creator sees, and says what waits in the queue', () => {
    expect(nextReview('held', { type: 'reject' })).toEqual({
      review: 'rejected',
      status: 'rejected',
      queued: false,
    });
    expect(nextReview('approved', { type: 'takeDown' })?.status).toBe('rejected');
    expect(nextReview('held', { type: 'approve' })).toEqual({ review: 'approved', queued: false });
    expect(nextReview('none', { type: 'mediaReady', mode: 'after' })).toEqual({
      review: 'open',
      queued: true,
    });
  });

  it('queues an upload whose media is ready, held back or public by UPLOAD_REVIEW', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    expect(queueOnMediaReady('before', now)).toEqual({ review: 'held', reviewQueuedAt: now });
    expect(queueOnMediaReady('after', now)).toEqual({ review: 'open', reviewQueuedAt: now });
  });
});

describe('identity review', () => {
  it('decides a pending request once; a rejected creator may send again', () => {
    expect(nextIdentity('none', 'submit')).toBe('pending');
    expect(nextIdentity('pending', 'approve')).toBe('approved');
    expect(nextIdentity('pending', 'reject')).toBe('rejected');
    expect(nextIdentity('rejected', 'submit')).toBe('pending');
    expect(nextIdentity('approved', 'reject')).toBeUndefined();
    expect(nextIdentity('approved', 'submit')).toBeUndefined();
    expect(nextIdentity('pending', 'submit')).toBeUndefined();
    expect(Object.keys(IDENTITY_TABLE).sort()).toEqual(['approved', 'none', 'pending', 'rejected']);
  });
});
