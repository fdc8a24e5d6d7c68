// How an upload reads on screen when the device is offline: whatever state its record was left in by a page
// that is gone (a reload, a closed browser), nothing is sent until the network is back, and the line says so.
import { expect, it, describe as suite } from 'vitest';
import { describe } from '../../src/features/upload/describe';
import type { UploadView } from '../../src/offline/uploads';

const upload = (state: UploadView['state']): UploadView =>
  ({
    id: 'u1',
    userId: 1,
    createdAt: 0,
    name: 'clip.mp4',
    size: 1000,
    type: 'video/mp4',
    durationSeconds: 10,
    localFrame: null,
    state,
    copy: 'opfs',
    saved: 1000,
    uploadUrl: 'http://x/v1/uploads/abc',
    offset: 450,
    sent: 450,
    inFlight: 0,
    bytesPerSecond: null,
    secondsLeft: null,
    needsFile: false,
    detailsState: 'queued',
  }) as unknown as UploadView;

suite('upload line offline', () => {
  it.each(['sending', 'queued', 'waiting'] as const)('a %s upload waits for the network', (state) => {
    const told = describe(upload(state), false);
    expect(told.line).toBe('Waiting for the network · 45%');
    expect(told.progress).toBe(0.45);
  });

  it('online, a sending upload shows its bytes and a queued one its turn', () => {
    expect(describe(upload('sending'), true).line).toBe('45% · 450 B of 1000 B');
    expect(describe(upload('queued'), true).line).toBe('Waiting for its turn · 45%');
  });

  it('a paused upload stays paused offline', () => {
    expect(describe(upload('paused'), false).line).toBe('Paused · 45%');
  });

  it('counts what the server confirmed, and draws the bytes on their way apart, only while they go', () => {
    const going = { ...upload('sending'), inFlight: 200 } as UploadView;
    const told = describe(going, true);
    expect(told.line).toBe('45% · 450 B of 1000 B');
    expect([told.progress, told.inFlight]).toEqual([0.45, 0.2]);
    // The line dropped: the same 45 %, and nothing on its way any more.
    const cut = describe(going, false);
    expect([cut.line, cut.progress, cut.inFlight]).toEqual([
      'Waiting for the network · 45%',
      0.45,
      undefined,
    ]);
  });
});

suite('upload status before the details are in', () => {
  const uploaded = (patch: Partial<UploadView>): UploadView =>
    ({ ...upload('sent'), offset: 1000, sent: 1000, detailsState: 'none', ...patch }) as UploadView;

  it.each([
    ['processing', false],
    ['approved', false],
    ['approved', true],
  ] as const)(
    'a %s video (in review: %s) reads as uploaded, to be published with its details',
    (status, inReview) => {
      const told = describe(uploaded({ status, inReview }), true);
      expect(told.badge).toEqual({ text: 'Uploaded', status: 'uploaded' });
      expect(told.line).toBe('Add a title and tags to publish it.');
    },
  );

  it('keeps saying uploaded while submitted details wait, then the server’s status; an outcome reads at once', () => {
    expect(describe(uploaded({ status: 'approved', detailsState: 'queued' }), true).badge?.text).toBe(
      'Uploaded',
    );
    expect(describe(uploaded({ status: 'approved', detailsState: 'sent' }), true).badge?.text).toBe(
      'Approved',
    );
    // What became of the video is no step before publishing: it shows, details or not.
    const failed = describe(uploaded({ status: 'error', statusReason: 'The file is not a video.' }), true);
    expect(failed.badge).toEqual({ text: 'Error', status: 'error' });
  });
});

suite('upload line once the operators have it', () => {
  const sent = (patch: Partial<UploadView>): UploadView =>
    ({ ...upload('sent'), detailsState: 'sent', ...patch }) as UploadView;

  it('a playable upload held for review says it waits, not that it is published', () => {
    const told = describe(sent({ status: 'approved', inReview: true }), true);
    expect(told.badge).toEqual({ text: 'In review', status: 'review' });
    expect(told.line).toBe('Waiting for review');
    expect(describe(sent({ status: 'approved', inReview: false }), true).line).toBe('Published');
  });

  it('a rejected upload gives the operators’ reason', () => {
    const told = describe(
      sent({ status: 'rejected', statusReason: 'The video is spam or advertising.' }),
      true,
    );
    expect(told.line).toBe('Not approved: The video is spam or advertising.');
    expect(told.tone).toBe('error');
  });
});
