// A video's media pipeline as its jobs, its sweep and its failures move it (server/media/pipeline/machine.ts):
// every legal move and every refusal, and the guards the workers' UPDATEs are built from, without a database.
import { describe, expect, it } from 'vitest';
import {
  CLAIM_OF,
  fromOf,
  MEDIA_TABLE,
  type MediaEvent,
  type MediaState,
  mediaStateOf,
  movesOf,
  nextMedia,
  STAGE_OF,
  UNFINISHED,
} from '../../server/media/pipeline/machine';

const events: MediaEvent[] = [
  'claimPreprocess',
  'claimProcess',
  'claimLadder',
  'lowestPublished',
  'ladderDone',
  'fail',
];
const states = Object.keys(MEDIA_TABLE) as MediaState[];

describe('media pipeline machine', () => {
  it('walks an upload from its row to a published ladder', () => {
    let state: MediaState | undefined = 'uploaded';
    const walk: (MediaState | undefined)[] = [state];
    for (const event of [
      'claimPreprocess',
      'claimProcess',
      'lowestPublished',
      'claimLadder',
      'ladderDone',
    ] as MediaEvent[]) {
      state = nextMedia(state, event);
      walk.push(state);
    }
    expect(walk).toEqual(['uploaded', 'preprocess', 'processing', 'building', 'building', 'published']);
  });

  it('answers every state and event as the table says, refusing the rest', () => {
    const moves: string[] = [];
    for (const state of states)
      for (const event of events) {
        const next = nextMedia(state, event);
        if (next) moves.push(`${state} ${event} ${next}`);
      }
    expect(moves).toEqual([
      'uploaded claimPreprocess preprocess',
      'uploaded fail error',
      'preprocess claimPreprocess preprocess',
      'preprocess claimProcess processing',
      'preprocess fail error',
      'processing claimProcess processing',
      'processing lowestPublished building',
      'processing fail error',
      'building claimProcess building',
      'building claimLadder building',
      'building ladderDone published',
      'building fail published',
    ]);
  });

  it('never takes back a video that plays: a failure after the approval keeps it published', () => {
    expect(nextMedia('building', 'fail')).toBe('published');
    for (const event of events) expect(nextMedia('published', event)).toBeUndefined();
  });

  it('approves once, so a retried process job never queues the video for review twice', () => {
    expect(fromOf('lowestPublished')).toEqual(['processing']);
  });

  it('moves nothing that has left the pipeline: error, deleting, rejected', () => {
    for (const event of events) expect(nextMedia('error', event)).toBeUndefined();
    expect(mediaStateOf({ status: 'deleting', mediaHeartbeatAt: new Date() })).toBeUndefined();
    expect(mediaStateOf({ status: 'rejected', mediaHeartbeatAt: null })).toBeUndefined();
    for (const event of events) expect(nextMedia(undefined, event)).toBeUndefined();
  });

  it("reads an approved row's state from its heartbeat", () => {
    expect(mediaStateOf({ status: 'approved', mediaHeartbeatAt: new Date(0) })).toBe('building');
    expect(mediaStateOf({ status: 'approved', mediaHeartbeatAt: null })).toBe('published');
    expect(mediaStateOf({ status: 'processing', mediaHeartbeatAt: null })).toBe('processing');
  });

  it('groups a claim into one guarded UPDATE per target, in table order', () => {
    expect(movesOf('claimProcess')).toEqual([
      { from: ['preprocess', 'processing'], to: 'processing' },
      { from: ['building'], to: 'building' },
    ]);
    expect(movesOf('fail')).toEqual([
      { from: ['uploaded', 'preprocess', 'processing'], to: 'error' },
      { from: ['building'], to: 'published' },
    ]);
  });

  it('hands every stuck state to a stage whose claim the table allows from it, and only those', () => {
    for (const state of states) {
      const stage = STAGE_OF[state];
      if (stage) expect(nextMedia(state, CLAIM_OF[stage]), `${state} -> ${stage}`).toBeDefined();
    }
    expect(Object.keys(STAGE_OF)).toEqual(['uploaded', 'preprocess', 'processing', 'building']);
    expect(UNFINISHED).toEqual(['uploaded', 'preprocess', 'processing']);
  });
});
