// An upload's table of states and events (src/offline/uploads/machine.ts), without IndexedDB: every state
// against every event, and what each legal move writes.
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/contract';
import { backoffMs, nextState, transition, type UploadEvent } from '../../src/offline/uploads/machine';
import type { DetailsValues, TransferState, UploadRecord } from '../../src/offline/uploads/records';

const STATES: TransferState[] = [
  'saving',
  'queued',
  'sending',
  'paused',
  'waiting',
  'signin',
  'sent',
  'failed',
  'cancelled',
];

const details: DetailsValues = {
  title: 'Night ride',
  tags: ['neon'],
  is_nsfw: false,
  schedule: false,
  uploadDate: '',
  uploadDateTimezone: 'UTC',
};

function record(state: TransferState, extra: Partial<UploadRecord> = {}): UploadRecord {
  return {
    id: 'u1',
    userId: 7,
    createdAt: 1,
    name: 'a.mp4',
    size: 1000,
    type: 'video/mp4',
    durationSeconds: 5,
    localFrame: null,
    state,
    copy: 'idb',
    saved: 400,
    uploadUrl: 'http://localhost/v1/uploads/1',
    offset: 300,
    error: 'before',
    final: false,
    retryAt: 99,
    attempts: 2,
    videoId: null,
    screenshot: null,
    status: null,
    statusReason: 'earlier',
    details,
    detailsState: 'queued',
    detailsError: null,
    scheduleLapsed: false,
    ...extra,
  };
}

/** The fields `event` writes on a record in `state` (the state included when it moves); null when refused. */
function written(state: TransferState, event: UploadEvent, extra: Partial<UploadRecord> = {}) {
  const before = record(state, extra);
  const after = transition(before, event);
  if (after === before) return null;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof UploadRecord)[])
    if (!Object.is(after[key], before[key])) out[key] = after[key];
  return out;
}

const events: [string, UploadEvent][] = [
  ['copied', { type: 'copied', place: 'opfs' }],
  ['copyFailed', { type: 'copyFailed', reason: 'full' }],
  ['copyInterrupted(whole)', { type: 'copyInterrupted', place: 'opfs' }],
  ['copyInterrupted(lost)', { type: 'copyInterrupted', place: null }],
  ['copyLost', { type: 'copyLost' }],
  ['copyRemoved', { type: 'copyRemoved' }],
  ['fileChosen', { type: 'fileChosen', name: 'a.mp4', size: 1000 }],
  ['pause', { type: 'pause' }],
  ['resume', { type: 'resume' }],
  ['cancel', { type: 'cancel' }],
  ['retry', { type: 'retry' }],
  ['send', { type: 'send' }],
  ['offsetConfirmed', { type: 'offsetConfirmed', offset: 500 }],
  ['urlStored', { type: 'urlStored', uploadUrl: 'http://localhost/v1/uploads/2' }],
  ['urlForgotten', { type: 'urlForgotten' }],
  ['stopped', { type: 'stopped' }],
  ['unreachable', { type: 'unreachable', message: 'No network.', at: 1000, offline: false }],
  ['signedOut', { type: 'signedOut' }],
  ['refused', { type: 'refused', reason: 'No.', final: false }],
  [
    'uploaded',
    {
      type: 'uploaded',
      uploadUrl: 'http://localhost/v1/uploads/1',
      videoId: 5,
      screenshot: 's',
      status: 'uploaded',
    },
  ],
  ['notRefused', { type: 'notRefused' }],
  ['expired', { type: 'expired' }],
  ['detailsSaved', { type: 'detailsSaved', details: { ...details, title: 'New' } }],
  ['detailsDelivered(same)', { type: 'detailsDelivered', details: { ...details }, lapsed: false }],
  [
    'detailsDelivered(edited since)',
    { type: 'detailsDelivered', details: { ...details, title: 'Old' }, lapsed: false },
  ],
  ['detailsRefused', { type: 'detailsRefused', error: { message: 'No.' }, videoReason: null }],
  ['statusRead', { type: 'statusRead', status: 'processing', screenshot: 's' }],
  ['videoRefused', { type: 'videoRefused', reason: 'No.' }],
  ['videoGone', { type: 'videoGone' }],
];

describe('upload machine', () => {
  it('answers every state and event as the table says (= stays, - refused)', () => {
    const moves: Record<string, string> = {};
    for (const [label, event] of events)
      moves[label] = STATES.map((state) => {
        const to = nextState(record(state), event);
        return to === undefined ? '-' : to === state ? '=' : to;
      }).join(' ');
    const all = (to: string) => STATES.map((s) => (s === to ? '=' : to)).join(' ');
    const same = STATES.map(() => '=').join(' ');
    //        saving   queued   sending  paused   waiting  signin   sent     failed   cancelled
    expect(moves).toEqual({
      copied: 'queued = = = = = = = =',
      copyFailed: all('failed'),
      'copyInterrupted(whole)': 'queued - - - - - - - -',
      'copyInterrupted(lost)': 'failed - - - - - - - -',
      copyLost: all('failed'),
      copyRemoved: same,
      fileChosen: all('saving'),
      pause: '- paused paused - paused paused - - -',
      resume: '- - - queued queued - - queued -',
      cancel: 'cancelled cancelled cancelled cancelled cancelled cancelled - cancelled =',
      retry: '- - - - queued queued - - -',
      send: '- sending = - sending - - - -',
      offsetConfirmed: same,
      urlStored: same,
      urlForgotten: same,
      stopped: '- - queued - - - - - -',
      unreachable: '- - waiting - - - - - -',
      signedOut: '- - signin - - - - - -',
      refused: all('failed'),
      uploaded: all('sent'),
      notRefused: all('queued'),
      expired: all('queued'),
      detailsSaved: same,
      'detailsDelivered(same)': same,
      'detailsDelivered(edited since)': '- - - - - - - - -',
      detailsRefused: same,
      statusRead: same,
      videoRefused: same,
      videoGone: same,
    });
  });

  it('resumes a failed upload only when it may go on and its copy is still there', () => {
    expect(nextState(record('failed'), { type: 'resume' })).toBe('queued');
    expect(nextState(record('failed', { final: true }), { type: 'resume' })).toBeUndefined();
    expect(nextState(record('failed', { copy: null }), { type: 'resume' })).toBeUndefined();
  });

  it('leaves a refused move’s record as it was, the very same object', () => {
    const sent = record('sent');
    expect(transition(sent, { type: 'cancel' })).toBe(sent);
    const paused = record('paused');
    expect(transition(paused, { type: 'unreachable', message: 'x', at: 0, offline: false })).toBe(paused);
  });

  it('writes what the device copy’s events say', () => {
    expect(written('saving', { type: 'copied', place: 'opfs' })).toEqual({
      state: 'queued',
      copy: 'opfs',
      saved: 1000,
    });
    // Cancelled while it was copied: only where the copy is (the queue then removes it).
    expect(written('cancelled', { type: 'copied', place: 'opfs' })).toEqual({ copy: 'opfs' });
    expect(written('saving', { type: 'copyFailed', reason: 'full' })).toEqual({
      state: 'failed',
      error: 'full',
      copy: null,
    });
    expect(written('saving', { type: 'copyInterrupted', place: 'opfs' })).toEqual({
      state: 'queued',
      copy: 'opfs',
      saved: 1000,
    });
    expect(written('saving', { type: 'copyInterrupted', place: null })).toEqual({
      state: 'failed',
      error: messages.upload.copyLost,
      copy: null,
      saved: 0,
    });
    expect(written('queued', { type: 'copyLost' }, { final: true })).toEqual({
      state: 'failed',
      error: messages.upload.copyLost,
      final: false,
      copy: null,
    });
    expect(written('cancelled', { type: 'copyRemoved' })).toEqual({ copy: null });
  });

  it('carries the same file on from the server’s offset, and starts another one over', () => {
    expect(written('failed', { type: 'fileChosen', name: 'a.mp4', size: 1000 })).toEqual({
      state: 'saving',
      error: null,
      saved: 0,
    });
    expect(written('failed', { type: 'fileChosen', name: null, size: 1000 })).toEqual({
      state: 'saving',
      error: null,
      saved: 0,
    });
    expect(written('failed', { type: 'fileChosen', name: 'b.mp4', size: 1000 })).toEqual({
      state: 'saving',
      error: null,
      name: 'b.mp4',
      saved: 0,
      uploadUrl: null,
      offset: 0,
    });
    expect(written('failed', { type: 'fileChosen', name: null, size: 2000 })).toEqual({
      state: 'saving',
      error: null,
      size: 2000,
      saved: 0,
      uploadUrl: null,
      offset: 0,
    });
  });

  it('writes what the creator’s events say', () => {
    expect(written('waiting', { type: 'pause' })).toEqual({ state: 'paused', retryAt: null });
    expect(written('paused', { type: 'resume' })).toEqual({ state: 'queued', retryAt: null, error: null });
    expect(written('queued', { type: 'cancel' })).toEqual({ state: 'cancelled' });
  });

  it('writes what the sending tab’s events say', () => {
    expect(written('signin', { type: 'retry' })).toEqual({ state: 'queued', retryAt: null });
    expect(written('queued', { type: 'send' })).toEqual({ state: 'sending', error: null });
    expect(written('sending', { type: 'offsetConfirmed', offset: 500 })).toEqual({
      offset: 500,
      attempts: 0,
    });
    expect(written('sending', { type: 'urlStored', uploadUrl: 'u2' })).toEqual({ uploadUrl: 'u2' });
    expect(written('sending', { type: 'urlForgotten' })).toEqual({ uploadUrl: null, offset: 0 });
  });

  it('writes how a transfer ended', () => {
    expect(written('sending', { type: 'stopped' })).toEqual({ state: 'queued' });
    expect(
      written('sending', { type: 'unreachable', message: 'No network.', at: 1000, offline: false }),
    ).toEqual({
      state: 'waiting',
      error: 'No network.',
      attempts: 3,
      retryAt: 1000 + backoffMs(3),
    });
    // Offline, the `online` event is the trigger, not a timer.
    expect(
      written('sending', { type: 'unreachable', message: 'No network.', at: 1000, offline: true }),
    ).toEqual({
      state: 'waiting',
      error: 'No network.',
      attempts: 3,
      retryAt: null,
    });
    expect(written('sending', { type: 'signedOut' })).toEqual({ state: 'signin' });
    expect(written('sending', { type: 'refused', reason: 'Not allowed.', final: false })).toEqual({
      state: 'failed',
      error: 'Not allowed.',
    });
    expect(written('sending', { type: 'refused', reason: 'Not a video.', final: true })).toEqual({
      state: 'failed',
      error: 'Not a video.',
      final: true,
      copy: null,
      status: 'error',
      statusReason: 'Not a video.',
    });
    expect(
      written('sending', {
        type: 'uploaded',
        uploadUrl: 'u',
        videoId: 5,
        screenshot: 's',
        status: 'uploaded',
      }),
    ).toEqual({
      state: 'sent',
      uploadUrl: 'u',
      offset: 1000,
      videoId: 5,
      screenshot: 's',
      status: 'uploaded',
      copy: null,
      error: null,
      retryAt: null,
    });
    expect(written('failed', { type: 'notRefused' })).toEqual({ state: 'queued' });
    expect(written('sending', { type: 'expired' })).toEqual({ state: 'queued', uploadUrl: null, offset: 0 });
  });

  it('writes the details’ own course', () => {
    const edited = { ...details, title: 'New' };
    expect(written('sent', { type: 'detailsSaved', details: edited }, { scheduleLapsed: true })).toEqual({
      details: edited,
      scheduleLapsed: false,
    });
    expect(
      written(
        'sent',
        { type: 'detailsSaved', details: edited },
        { detailsState: 'failed', detailsError: { message: 'x' } },
      ),
    ).toEqual({ details: edited, detailsState: 'queued', detailsError: null });
    expect(written('sent', { type: 'detailsDelivered', details: { ...details }, lapsed: true })).toEqual({
      detailsState: 'sent',
      scheduleLapsed: true,
    });
    expect(
      written('sent', {
        type: 'detailsRefused',
        error: { message: 'Bad.', errors: { title: ['Bad.'] } },
        videoReason: null,
      }),
    ).toEqual({ detailsState: 'failed', detailsError: { message: 'Bad.', errors: { title: ['Bad.'] } } });
    expect(
      written('sent', { type: 'detailsRefused', error: { message: 'Gone.' }, videoReason: 'Not a video.' }),
    ).toEqual({
      detailsState: 'failed',
      detailsError: { message: 'Gone.' },
      status: 'error',
      statusReason: 'Not a video.',
    });
  });

  it('writes what the server says of the video', () => {
    expect(written('sent', { type: 'statusRead', status: 'processing', screenshot: 's' })).toEqual({
      status: 'processing',
      screenshot: 's',
      inReview: false,
    });
    expect(
      written('sent', {
        type: 'statusRead',
        status: 'approved',
        screenshot: 's',
        inReview: true,
        statusReason: 'why',
      }),
    ).toEqual({ status: 'approved', screenshot: 's', inReview: true, statusReason: 'why' });
    expect(written('sent', { type: 'videoRefused', reason: 'Broken.' })).toEqual({
      status: 'error',
      statusReason: 'Broken.',
    });
    expect(written('sent', { type: 'videoGone' })).toEqual({ status: 'deleting' });
  });

  it('backs off from 5 s, doubling, to 2 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffMs)).toEqual([
      5000, 10_000, 20_000, 40_000, 80_000, 120_000, 120_000,
    ]);
  });
});
