// The upload queue on (fake) IndexedDB with the real tus-js-client. The network edge is the only stand-in:
// a small tus 1.0 server in memory, plugged in as tus-js-client's HTTP stack, that keeps the bytes it
// receives, can cut a PATCH part-way (as a dropped connection does) and answers like server/routes/uploads.ts.
import { clear, createStore, keys } from 'idb-keyval';
import type * as tus from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import { messages } from '../../src/contract';
import type { UploadDetailsInput } from '../../src/contract/upload-details';
import type { DetailsValues } from '../../src/offline/uploads';
import type { QueueEvent } from '../../src/offline/uploads/deps';
import { openCopy, removeCopy } from '../../src/offline/uploads/files';
import { UploadQueue, type UploadView } from '../../src/offline/uploads/queue';
import { listRecords, updateRecord } from '../../src/offline/uploads/records';
import { CHUNK_SIZE } from '../../src/offline/uploads/transfer';

// Node's own File: fake-indexeddb keeps Blobs through Node's structured clone, as a browser keeps them;
// happy-dom's File does not survive it.
const { File: NodeFile } = (
  globalThis as unknown as { process: { getBuiltinModule(id: 'node:buffer'): { File: typeof File } } }
).process.getBuiltinModule('node:buffer');

const ENDPOINT = 'http://localhost/v1/uploads';
const TOKEN = 'token-of-7';

interface Stored {
  length: number;
  data: Uint8Array;
  offset: number;
  videoId?: number;
  refused?: string;
}

class MemoryTusServer implements tus.HttpStack {
  readonly uploads = new Map<string, Stored>();
  readonly log: { method: string; id: string; offset?: number; bytes: number }[] = [];
  readonly details: UploadDetailsInput[] = [];
  /** Cut the next PATCH after this many of its bytes: the server keeps them, the client gets no answer. */
  cutAfter: number | null = null;
  /** What the server thinks of the next finished file. */
  refuse: string | null = null;
  /**
   * Report every PATCH body as handed to the network (XHR's upload progress), this long before the server
   * answers or the line is cut: the client then knows of bytes the server has not confirmed.
   */
  wireDelayMs: number | null = null;
  inFlight = 0;
  maxInFlight = 0;
  private nextId = 1;
  private nextVideo = 100;

  getName() {
    return 'memory';
  }

  createRequest(method: string, url: string): tus.HttpRequest {
    const headers = new Map<string, string>();
    let progress: (bytesSent: number) => void = () => {};
    return {
      getMethod: () => method,
      getURL: () => url,
      setHeader: (name: string, value: string) => void headers.set(name.toLowerCase(), value),
      getHeader: (name: string) => headers.get(name.toLowerCase()),
      setProgressHandler: (handler: (bytesSent: number) => void) => {
        progress = handler;
      },
      abort: async () => {},
      getUnderlyingObject: () => null,
      send: async (body?: Blob | null) => {
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        try {
          if (method === 'PATCH' && body && this.wireDelayMs !== null) {
            progress(body.size);
            await new Promise((resolve) => setTimeout(resolve, this.wireDelayMs ?? 0));
          }
          return await this.handle(method, url, headers, body ?? null);
        } finally {
          this.inFlight--;
        }
      },
    };
  }

  private async handle(method: string, url: string, headers: Map<string, string>, body: Blob | null) {
    if (!online) throw new TypeError('network down');
    if (headers.get('authorization') !== `Bearer ${TOKEN}`)
      return answer(401, {}, { message: 'Unauthenticated.' });
    const id = new URL(url).pathname.split('/')[3] ?? '';
    const upload = this.uploads.get(id);
    if (method === 'POST') {
      const length = Number(headers.get('upload-length'));
      const created = String(this.nextId++);
      this.uploads.set(created, { length, data: new Uint8Array(length), offset: 0 });
      this.log.push({ method, id: created, bytes: 0 });
      return answer(201, { Location: `/v1/uploads/${created}` });
    }
    this.log.push({
      method,
      id,
      bytes: body?.size ?? 0,
      ...(method === 'PATCH' ? { offset: Number(headers.get('upload-offset')) } : {}),
    });
    if (!upload) return answer(404, {}, { message: 'Upload not found.' });
    if (method === 'DELETE') {
      if (upload.videoId) return answer(409, {}, { message: messages.upload.uploadFinished });
      this.uploads.delete(id);
      return answer(204);
    }
    if (method === 'HEAD') {
      if (upload.refused) return answer(422);
      return answer(200, {
        'Upload-Offset': String(upload.offset),
        'Upload-Length': String(upload.length),
        ...(upload.videoId
          ? { 'Video-Id': String(upload.videoId), 'Video-Screenshot': `/media/${upload.videoId}.jpg` }
          : {}),
      });
    }
    // PATCH
    if (Number(headers.get('upload-offset')) !== upload.offset) return answer(409, {}, { message: 'offset' });
    const bytes = new Uint8Array(await (body as Blob).arrayBuffer());
    const taken = this.cutAfter === null ? bytes : bytes.subarray(0, this.cutAfter);
    upload.data.set(taken, upload.offset);
    upload.offset += taken.length;
    if (this.cutAfter !== null) {
      this.cutAfter = null;
      online = false;
      throw new TypeError('connection reset');
    }
    if (upload.offset < upload.length) return answer(204, { 'Upload-Offset': String(upload.offset) });
    if (this.refuse) {
      upload.refused = this.refuse;
      return answer(
        422,
        {},
        { message: messages.upload.failed(this.refuse), errors: { video: [this.refuse] } },
      );
    }
    upload.videoId = this.nextVideo++;
    return answer(204, {
      'Upload-Offset': String(upload.offset),
      'Video-Id': String(upload.videoId),
      'Video-Screenshot': `/media/${upload.videoId}.jpg`,
    });
  }

  /** GET /v1/uploads/{id}/video and POST /v1/videos/upload-details, as the API client would call them. */
  readonly api = {
    outcome: async (uploadUrl: string) => {
      if (!online) throw new ApiError(0, messages.network);
      const upload = this.uploads.get(new URL(uploadUrl).pathname.split('/')[3] ?? '');
      if (upload?.refused)
        throw new ApiError(
          422,
          messages.upload.failed(upload.refused),
          { video: [upload.refused] },
          { fromServer: true },
        );
      if (!upload?.videoId)
        throw new ApiError(409, messages.upload.uploadUnfinished, undefined, { fromServer: true });
      return {
        videoId: upload.videoId,
        screenshot: `/media/${upload.videoId}.jpg`,
        status: 'processing' as const,
      };
    },
    details: async (payload: UploadDetailsInput) => {
      if (!online) throw new ApiError(0, messages.network);
      this.details.push(payload);
      return {};
    },
  };

  /** Body bytes the client put on the wire in PATCH requests. */
  patchBytes() {
    return this.log.filter((r) => r.method === 'PATCH').reduce((n, r) => n + r.bytes, 0);
  }
}

function answer(status: number, headers: Record<string, string> = {}, body?: unknown): tus.HttpResponse {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    getStatus: () => status,
    getHeader: (name: string) => lower.get(name.toLowerCase()),
    getBody: () => (body === undefined ? '' : JSON.stringify(body)),
    getUnderlyingObject: () => null,
  };
}

let online = true;
let server: MemoryTusServer;
let events: QueueEvent[];
const queues: UploadQueue[] = [];

function newQueue() {
  const queue = new UploadQueue({
    endpoint: ENDPOINT,
    api: server.api,
    auth: () => ({ userId: 7, accessToken: TOKEN }),
    onEvent: (event) => events.push(event),
    httpStack: server,
    locks: false,
    broadcast: false,
  });
  queues.push(queue);
  return queue;
}

/** A video-sized file whose bytes say where they are, so a misplaced byte shows. */
function makeFile(name: string, size: number): File {
  const data = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) data[i] = (i / 4096) % 251;
  return new NodeFile([data], name, { type: 'video/mp4' });
}

/** Where two byte arrays first differ, -1 when equal (toEqual on megabytes would take minutes). */
function firstDifference(a: Uint8Array | undefined, b: Uint8Array): number {
  if (!a || a.length !== b.length) return 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

const view = (queue: UploadQueue, id: string) => queue.snapshot().find((u) => u.id === id) as UploadView;

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const details: DetailsValues = {
  title: 'Night ride',
  tags: ['neon', 'city'],
  is_nsfw: false,
  schedule: false,
  uploadDate: '',
  uploadDateTimezone: 'Europe/Paris',
};

const deviceBlobs = createStore('shortcams-upload-files', 'files');

beforeEach(async () => {
  online = true;
  server = new MemoryTusServer();
  events = [];
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  await clear(createStore('shortcams-uploads', 'uploads'));
  await clear(deviceBlobs);
});

afterEach(() => {
  // A tab closing: its queue stops where it is.
  for (const queue of queues.splice(0)) queue.stop();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'storage');
});

describe('upload queue', () => {
  it('sends uploads one at a time, in the order they were chosen', async () => {
    const queue = newQueue();
    await queue.start();
    const ids: string[] = [];
    for (const name of ['a.mp4', 'b.mp4', 'c.mp4'])
      ids.push(await queue.add(makeFile(name, 300_000), { durationSeconds: 5, localFrame: null }));
    await until('all sent', () => ids.every((id) => view(queue, id)?.state === 'sent'));
    const created = server.log.filter((r) => r.method === 'POST').map((r) => r.id);
    const patched = server.log.filter((r) => r.method === 'PATCH').map((r) => r.id);
    expect(patched).toEqual(created);
    expect(server.maxInFlight).toBe(1);
    expect(ids.map((id) => view(queue, id).videoId)).toEqual([100, 101, 102]);
    // The server has every byte: the device copies are freed.
    for (const id of ids) expect(await openCopy(id, 'idb')).toBeNull();
  });

  it('keeps where it was across a cut and a reload, and resumes from the server’s offset', async () => {
    const size = 2 * CHUNK_SIZE + 123_456;
    const file = makeFile('long.mp4', size);
    const first = newQueue();
    await first.start();
    // The line dies half-way through the second chunk.
    let patches = 0;
    const handle = server.createRequest.bind(server);
    server.createRequest = (method, url) => {
      if (method === 'PATCH' && ++patches === 2) server.cutAfter = CHUNK_SIZE / 2;
      return handle(method, url);
    };
    const id = await first.add(file, { durationSeconds: 60, localFrame: null });
    await until('waiting for the network', () => view(first, id)?.state === 'waiting');
    const [stored] = await listRecords();
    expect(stored).toMatchObject({ state: 'waiting', offset: CHUNK_SIZE, copy: 'idb' });
    expect(stored?.uploadUrl).toBe(`${ENDPOINT}/1`);

    // A reload: the page goes, a new queue starts on the same device, back online.
    first.stop();
    online = true;
    const second = newQueue();
    await second.start();
    second.kick();
    await until('sent after the reload', () => view(second, id)?.state === 'sent');
    const uploadId = '1';
    expect(server.log.filter((r) => r.method === 'POST')).toHaveLength(1);
    // It asked where to go on, and went on from there: the half chunk the server kept is not sent again.
    const resumed = server.log.filter((r) => r.method === 'PATCH' && r.id === uploadId).at(2);
    expect(resumed?.offset).toBe(CHUNK_SIZE + CHUNK_SIZE / 2);
    expect(server.log.some((r) => r.method === 'HEAD')).toBe(true);
    expect(server.patchBytes()).toBeLessThanOrEqual(size + CHUNK_SIZE);
    expect(
      firstDifference(server.uploads.get(uploadId)?.data, new Uint8Array(await file.arrayBuffer())),
    ).toBe(-1);
  });

  it('counts the bytes the server confirmed: a cut never takes the card back, the resume’s HEAD moves it on', async () => {
    const size = 2 * CHUNK_SIZE + 123_456;
    const queue = newQueue();
    await queue.start();
    // Long enough for a repaint (every 250 ms) while the bytes of a PATCH are on their way.
    server.wireDelayMs = 400;
    let patches = 0;
    const handle = server.createRequest.bind(server);
    server.createRequest = (method, url) => {
      if (method === 'PATCH' && ++patches === 2) server.cutAfter = CHUNK_SIZE / 2;
      return handle(method, url);
    };
    let id = '';
    const shown: { state: string; sent: number; inFlight: number }[] = [];
    queue.subscribe(() => {
      const u = id ? view(queue, id) : undefined;
      if (u && u.state !== 'saving') shown.push({ state: u.state, sent: u.sent, inFlight: u.inFlight });
    });
    id = await queue.add(makeFile('cut.mp4', size), { durationSeconds: 60, localFrame: null });
    const neverBack = () => {
      const counted = shown.map((s) => s.sent);
      for (let i = 1; i < counted.length; i++) expect(counted[i]).toBeGreaterThanOrEqual(counted[i - 1] ?? 0);
      return counted;
    };
    await until('waiting for the network', () => view(queue, id)?.state === 'waiting');
    neverBack();
    // The whole second chunk went on the wire, half of it arrived, and nothing of it was confirmed.
    expect(shown.some((s) => s.inFlight === CHUNK_SIZE)).toBe(true);
    expect(view(queue, id)).toMatchObject({ sent: CHUNK_SIZE, inFlight: 0 });

    online = true;
    queue.kick();
    await until('sent', () => view(queue, id)?.state === 'sent');
    const counted = neverBack();
    // The HEAD of the resume told of the half chunk the server kept: shown before the rest was sent.
    expect(shown).toContainEqual(expect.objectContaining({ state: 'sending', sent: CHUNK_SIZE * 1.5 }));
    expect(counted.at(-1)).toBe(size);
  });

  it('cancels: the server drops the upload (DELETE) and the device copy is freed', async () => {
    const queue = newQueue();
    await queue.start();
    online = false;
    const id = await queue.add(makeFile('gone.mp4', 400_000), { durationSeconds: 5, localFrame: null });
    await until('copied', async () => (await openCopy(id, 'idb')) !== null);
    // Online for a first chunk, then paused mid-way so the server has an upload to drop.
    await queue.pause(id);
    online = true;
    server.cutAfter = 1000;
    await queue.resume(id);
    await until('cut', () => view(queue, id)?.state === 'waiting');
    online = true;
    await queue.cancel(id);
    await until('record gone', async () => (await listRecords()).length === 0);
    expect(server.log.at(-1)).toMatchObject({ method: 'DELETE', id: '1' });
    expect(server.uploads.has('1')).toBe(false);
    expect(await openCopy(id, 'idb')).toBeNull();
    expect(await keys(deviceBlobs)).toEqual([]);
    expect(queue.snapshot()).toEqual([]);
  });

  it('keeps details typed while the bytes go, and sends them once the video id is known', async () => {
    const queue = newQueue();
    await queue.start();
    online = false;
    const id = await queue.add(makeFile('d.mp4', 200_000), { durationSeconds: 5, localFrame: null });
    expect(await queue.saveDetails(id, details)).toBe('queued');
    await until('copied', () => view(queue, id)?.copy === 'idb');
    expect(server.details).toEqual([]);
    expect(view(queue, id)).toMatchObject({ detailsState: 'queued', details });

    // A reload while offline keeps them too.
    queue.stop();
    const again = newQueue();
    await again.start();
    expect(view(again, id)).toMatchObject({ detailsState: 'queued', details });

    online = true;
    again.kick();
    await until('details sent', () => view(again, id)?.detailsState === 'sent');
    expect(server.details).toEqual([
      {
        videoId: 100,
        title: 'Night ride',
        tags: 'neon,city',
        is_nsfw: false,
        schedule: false,
        uploadDate: '',
        uploadDateTimezone: 'Europe/Paris',
      },
    ]);
    expect(events).toContainEqual({ kind: 'detailsApplied', id });
  });

  it('sends details at once when the video exists, and queues them while offline', async () => {
    const queue = newQueue();
    await queue.start();
    const id = await queue.add(makeFile('e.mp4', 100_000), { durationSeconds: 5, localFrame: null });
    await until('sent', () => view(queue, id)?.state === 'sent');
    online = false;
    expect(await queue.saveDetails(id, details)).toBe('queued');
    online = true;
    queue.kick();
    await until('details sent', () => server.details.length === 1);
    expect(await queue.saveDetails(id, { ...details, title: 'Renamed' })).toBe('sent');
    expect(server.details.map((d) => d.title)).toEqual(['Night ride', 'Renamed']);
  });

  it('drops a schedule whose time passed while the upload waited, and says so', async () => {
    const queue = newQueue();
    await queue.start();
    online = false;
    const id = await queue.add(makeFile('f.mp4', 100_000), { durationSeconds: 5, localFrame: null });
    await queue.saveDetails(id, {
      ...details,
      schedule: true,
      uploadDate: '2001-01-01T10:00',
      uploadDateTimezone: 'UTC',
    });
    online = true;
    queue.kick();
    await until('details sent', () => view(queue, id)?.detailsState === 'sent');
    expect(server.details[0]).toMatchObject({ schedule: false, uploadDate: '' });
    expect(view(queue, id).scheduleLapsed).toBe(true);
  });

  it('says a refused file’s reason and frees its copy; details for it get “Missing video identifier.”', async () => {
    const queue = newQueue();
    await queue.start();
    server.refuse = messages.upload.notVideo;
    const id = await queue.add(makeFile('text.mp4', 5000), { durationSeconds: null, localFrame: null });
    await until('refused', () => view(queue, id)?.state === 'failed');
    expect(view(queue, id)).toMatchObject({ error: 'The file is not a video.', final: true, copy: null });
    expect(events).toContainEqual({ kind: 'uploadFailed', id, reason: 'The file is not a video.' });
    await expect(queue.saveDetails(id, details)).rejects.toMatchObject({
      message: 'Missing video identifier.',
    });
  });

  it('keeps the details when the device is full, and carries on once there is room', async () => {
    let room = 1024;
    Object.defineProperty(navigator, 'storage', {
      configurable: true,
      value: {
        estimate: async () => ({ quota: room, usage: 0 }),
        persisted: async () => false,
        persist: async () => true,
      },
    });
    const queue = newQueue();
    await queue.start();
    const file = makeFile('big.mp4', 300_000);
    const id = await queue.add(file, { durationSeconds: 5, localFrame: null });
    await until('refused for space', () => view(queue, id)?.state === 'failed');
    expect(view(queue, id)).toMatchObject({ error: messages.storageFull, copy: null });
    expect(server.log).toEqual([]);
    await queue.saveDetails(id, details);
    expect(view(queue, id)).toMatchObject({ details, detailsState: 'queued' });

    room = 10 * 1024 ** 3;
    await queue.resume(id);
    await until('details sent', () => view(queue, id)?.detailsState === 'sent');
    expect(server.details[0]).toMatchObject({ title: 'Night ride', videoId: 100 });
  });

  /** What a page closed while it copied the file onto the device leaves behind, with or without the copy. */
  async function leftMidCopy(keepCopy: boolean) {
    online = false;
    const first = newQueue();
    await first.start();
    const file = makeFile('cut.mp4', 300_000);
    const id = await first.add(file, { durationSeconds: 5, localFrame: null });
    await until('copied', () => view(first, id)?.copy !== null);
    await first.saveDetails(id, details);
    first.stop();
    await updateRecord(id, (r) => ({ ...r, state: 'saving', copy: null, saved: 100_000 }));
    if (!keepCopy) await removeCopy(id, 'idb');
    online = true;
    return { id, file };
  }

  it('asks for the file again when the page went while it was being copied, and keeps the details', async () => {
    const { id, file } = await leftMidCopy(false);
    const queue = newQueue();
    await queue.start();
    expect(view(queue, id)).toMatchObject({
      state: 'failed',
      error: messages.upload.copyLost,
      needsFile: true,
      details,
    });
    expect(server.log).toEqual([]);
    await queue.replaceFile(id, file);
    await until('sent', () => view(queue, id)?.state === 'sent');
    await until('details sent', () => view(queue, id)?.detailsState === 'sent');
    expect(server.details[0]).toMatchObject({ title: 'Night ride', videoId: 100 });
  });

  it('sends a copy that was whole when the page went, without asking for the file', async () => {
    const { id } = await leftMidCopy(true);
    const queue = newQueue();
    await queue.start();
    await until('sent', () => view(queue, id)?.state === 'sent');
    expect(server.patchBytes()).toBe(300_000);
  });
});
