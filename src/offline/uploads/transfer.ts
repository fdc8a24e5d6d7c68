// One upload's bytes over tus (tus-js-client): created once, then resumed from the server's offset (HEAD)
// every time it starts again, from the URL kept in the upload's record. What can end a transfer is boiled
// down to a few outcomes the queue acts on; the wire details (statuses, headers, retries) stay here.
import * as tus from 'tus-js-client';
import { messages } from '../../contract';
import { applyEvent } from './apply';
import { readRecord, type UploadRecord } from './records';

/**
 * 8 MiB per PATCH. tus-js-client slices the device copy lazily, so the size costs no memory; what it
 * weighs is one round trip per chunk (under 2 % of the chunk's time on a 100 Mbit/s uplink, nothing on a
 * phone's) against the most a cut connection can make us count twice (one chunk, and the server keeps the
 * bytes of a cut PATCH that did arrive). It also stays far below the request-body limits of proxies and
 * CDNs in front of the API (Cloudflare: 100 MB).
 */
export const CHUNK_SIZE = 8 * 1024 * 1024;

/**
 * tus-js-client's own quick retries inside one attempt (a blip, a 5xx, a 409 offset mismatch, a 423 lock):
 * 0, 1, 3, 6 and 12 s. Past them, or as soon as the browser says it is offline, the queue takes over with its
 * own, longer back-off and the `online` / foreground triggers.
 */
export const RETRY_DELAYS = [0, 1000, 3000, 6000, 12000];

const FINGERPRINT_PREFIX = 'shortcams-upload:';

export type TransferEnd =
  /** The server has every byte; the video's id and first frame when the answer carried them. */
  | { kind: 'sent'; uploadUrl: string; videoId: number | null; screenshot: string | null }
  /** No answer (offline, server unreachable, 5xx past the quick retries): try again later. */
  | { kind: 'unreachable'; message: string }
  /** The token is no longer valid or belongs to someone else. */
  | { kind: 'signin' }
  /** The server refused; `final` when nothing can change its mind (the file itself). */
  | { kind: 'refused'; reason: string; final: boolean }
  /** A finished upload that was refused: its reason is at GET …/video. */
  | { kind: 'refusedEarlier'; uploadUrl: string }
  /** The server no longer has the upload (expired): start it again from the first byte. */
  | { kind: 'restart' }
  /** The device copy could not be read. */
  | { kind: 'unreadable' }
  /** Stopped by `abort` (pause, cancel). */
  | { kind: 'aborted' };

/** Why a request was stopped before tus-js-client could act on its answer. */
class Stop extends Error {
  constructor(readonly end: TransferEnd) {
    super(end.kind);
  }
}

interface ErrorBody {
  message?: string;
  errors?: Record<string, string[]>;
}

function bodyOf(res: tus.HttpResponse): ErrorBody {
  try {
    return JSON.parse(res.getBody() || '{}') as ErrorBody;
  } catch {
    return {};
  }
}

/** The reason after 'Video upload failed: ': `errors.video[0]`, else the message without that prefix. */
export function refusalReason(body: ErrorBody): string {
  const field = body.errors ? Object.values(body.errors)[0]?.[0] : undefined;
  if (field) return field;
  const prefix = messages.upload.failed('');
  const message = body.message ?? messages.server.internal;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/**
 * tus-js-client's URL storage, kept in the upload's own record: the fingerprint names the record, so a
 * resume after a reload or a browser restart finds its URL, and tus-js-client forgets it (on a 404) there.
 */
export const recordUrlStorage: tus.UrlStorage = {
  async findAllUploads() {
    return [];
  },
  async findUploadsByFingerprint(fingerprint) {
    const record = await readRecord(fingerprint.slice(FINGERPRINT_PREFIX.length));
    if (!record?.uploadUrl) return [];
    return [
      {
        size: record.size,
        metadata: {},
        creationTime: new Date(record.createdAt).toString(),
        urlStorageKey: fingerprint,
        uploadUrl: record.uploadUrl,
        parallelUploadUrls: null,
      },
    ];
  },
  async removeUpload(key) {
    await applyEvent(key.slice(FINGERPRINT_PREFIX.length), { type: 'urlForgotten' });
  },
  async addUpload(fingerprint, upload) {
    await applyEvent(fingerprint.slice(FINGERPRINT_PREFIX.length), {
      type: 'urlStored',
      uploadUrl: upload.uploadUrl,
    });
    return fingerprint;
  },
};

/** tus-js-client's browser file source, for any Blob (the device copy is a disk-backed File or a Blob). */
const blobReader: tus.FileReader = {
  async openFile(input: Blob) {
    return {
      size: input.size,
      slice: async (start: number, end: number) => ({
        value: input.slice(start, end),
        done: end >= input.size,
      }),
      close() {},
    };
  },
};

export interface TransferOptions {
  /** Absolute URL of the tus endpoint (POST creates). */
  endpoint: string;
  /** The bearer token of the upload's owner now, or null when that account is not signed in. */
  token: () => string | null;
  /** tus-js-client's HTTP stack: its own (XMLHttpRequest in browsers) unless a test brings one. */
  httpStack?: tus.HttpStack;
  /** Bytes handed to the network so far: ahead of what the server has confirmed, and lost if the line drops. */
  onProgress: (bytesSent: number) => void;
  /**
   * An offset the server confirmed: after a chunk, and when a transfer resumes (HEAD), which may tell of more
   * bytes than the last chunk's answer (a cut PATCH keeps what arrived) or, rarely, fewer (the server lost them).
   */
  onConfirmed: (offset: number) => void;
}

export interface Transfer {
  done: Promise<TransferEnd>;
  /** Stops sending (the server keeps what it has). */
  abort(): void;
}

export function startTransfer(record: UploadRecord, file: Blob, options: TransferOptions): Transfer {
  let settle: (end: TransferEnd) => void = () => {};
  const done = new Promise<TransferEnd>((resolve) => {
    settle = resolve;
  });
  let aborted = false;

  const upload = new tus.Upload(file, {
    endpoint: options.endpoint,
    chunkSize: CHUNK_SIZE,
    retryDelays: RETRY_DELAYS,
    metadata: { filename: record.name, filetype: record.type || 'application/octet-stream' },
    fingerprint: async () => `${FINGERPRINT_PREFIX}${record.id}`,
    urlStorage: recordUrlStorage,
    fileReader: blobReader,
    ...(options.httpStack ? { httpStack: options.httpStack } : {}),
    storeFingerprintForResuming: true,
    // The URL stays in the record after the last byte: GET …/video asks about the video with it.
    removeFingerprintOnSuccess: false,
    onBeforeRequest(req) {
      const token = options.token();
      if (!token) throw new Stop({ kind: 'signin' });
      req.setHeader('Authorization', `Bearer ${token}`);
    },
    onAfterResponse(req, res) {
      const status = res.getStatus();
      const method = req.getMethod();
      if (status === 401) throw new Stop({ kind: 'signin' });
      // Not allowed to upload (verification): the upload is kept, to go on once it is allowed.
      if (status === 403)
        throw new Stop({ kind: 'refused', reason: refusalReason(bodyOf(res)), final: false });
      if (status === 413 || (status === 422 && method !== 'HEAD'))
        throw new Stop({ kind: 'refused', reason: refusalReason(bodyOf(res)), final: true });
      if (status === 422) throw new Stop({ kind: 'refusedEarlier', uploadUrl: req.getURL() });
      // A HEAD's 404 makes tus-js-client start a new upload by itself; a PATCH's means the same.
      if ((status === 404 || status === 410) && method !== 'HEAD') throw new Stop({ kind: 'restart' });
      const offset = Number(res.getHeader('Upload-Offset'));
      if (method === 'HEAD' && status >= 200 && status < 300 && Number.isSafeInteger(offset) && offset >= 0)
        options.onConfirmed(offset);
    },
    onShouldRetry(error) {
      if (error.causingError instanceof Stop) return false;
      const status = error.originalResponse?.getStatus() ?? 0;
      const worthIt = status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
      return worthIt && navigator.onLine !== false;
    },
    onProgress: (sent) => options.onProgress(sent),
    onChunkComplete: (_chunk, accepted) => options.onConfirmed(accepted),
    onSuccess({ lastResponse }) {
      const id = Number(lastResponse.getHeader('Video-Id'));
      settle({
        kind: 'sent',
        uploadUrl: upload.url ?? '',
        videoId: Number.isInteger(id) && id > 0 ? id : null,
        screenshot: lastResponse.getHeader('Video-Screenshot') || null,
      });
    },
    onError(error) {
      if (aborted) return settle({ kind: 'aborted' });
      const cause = (error as tus.DetailedError).causingError;
      if (cause instanceof Stop) return settle(cause.end);
      const response = (error as tus.DetailedError).originalResponse;
      if (!(error as tus.DetailedError).originalRequest) return settle({ kind: 'unreadable' });
      if (!response) return settle({ kind: 'unreachable', message: messages.network });
      const status = response.getStatus();
      if (status >= 500 || status === 409 || status === 423 || status === 429)
        return settle({ kind: 'unreachable', message: bodyOf(response).message ?? messages.network });
      return settle({ kind: 'refused', reason: refusalReason(bodyOf(response)), final: false });
    },
  });

  void upload
    .findPreviousUploads()
    .then((previous) => {
      if (aborted) return settle({ kind: 'aborted' });
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    })
    .catch(() => settle({ kind: 'unreadable' }));

  return {
    done,
    abort() {
      aborted = true;
      void upload.abort(false);
      settle({ kind: 'aborted' });
    },
  };
}

/** Ends an unfinished upload on the server (tus termination). 'gone' also when it had already ended. */
export async function terminate(
  uploadUrl: string,
  options: Pick<TransferOptions, 'token' | 'httpStack'>,
): Promise<'gone' | 'finished' | 'unreachable' | 'signin'> {
  const token = options.token();
  if (!token) return 'signin';
  try {
    await tus.Upload.terminate(uploadUrl, {
      retryDelays: [0, 1000],
      headers: { Authorization: `Bearer ${token}` },
      ...(options.httpStack ? { httpStack: options.httpStack } : {}),
      onShouldRetry: (error) => !error.originalResponse && navigator.onLine !== false,
    });
    return 'gone';
  } catch (error) {
    const status = (error as tus.DetailedError).originalResponse?.getStatus() ?? 0;
    if (status === 404 || status === 410) return 'gone';
    if (status === 409) return 'finished';
    if (status === 401) return 'signin';
    return 'unreachable';
  }
}
