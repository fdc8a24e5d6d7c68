import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import { type UploadView, uploads } from '../../offline/uploads';
import { onlineAtom } from '../../state/network';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatDuration } from '../../ui/format';
import { PlayIcon } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { CloseIcon, PauseIcon, RetryIcon, UploadIcon } from '../../ui/more-icons';
import { describe, sizeOf } from './describe';

/** Object URLs of the device's own frames, one per upload for the life of the page (records are re-read often). */
const frameUrls = new Map<string, string>();
const frameUrlOf = (upload: UploadView) => {
  if (!upload.localFrame) return null;
  let url = frameUrls.get(upload.id);
  if (!url) {
    url = URL.createObjectURL(upload.localFrame);
    frameUrls.set(upload.id, url);
  }
  return url;
};

/** The server's first frame once it exists, the device's own frame before that. */
export function UploadThumb({ upload }: { upload: UploadView }) {
  const [broken, setBroken] = useState(false);
  const src = (!broken && upload.screenshot) || frameUrlOf(upload);
  return (
    <div className="upload-thumb">
      {src ? (
        <img src={src} alt="" onError={() => setBroken(true)} />
      ) : (
        <UploadIcon className="upload-thumb-icon" aria-hidden="true" />
      )}
    </div>
  );
}

export const titleOf = (upload: UploadView) => upload.details?.title || upload.name;

/**
 * One upload: what it is, where its bytes are or what the server says of its video, and what the creator can
 * do about it. `card` is the larger version at the top of the details step.
 */
export function UploadItem({ upload, variant = 'row' }: { upload: UploadView; variant?: 'row' | 'card' }) {
  const online = useAtomValue(onlineAtom);
  const [confirming, setConfirming] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const told = describe(upload, online);
  const Heading = variant === 'card' ? 'h2' : 'h3';
  const meta = [sizeOf(upload.size), upload.durationSeconds ? formatDuration(upload.durationSeconds) : null]
    .filter(Boolean)
    .join(' · ');
  const canPause = ['queued', 'sending', 'waiting', 'signin'].includes(upload.state);
  const canCancel = upload.state !== 'sent' && !(upload.state === 'failed' && upload.final);
  // A sent video leaves the list once its details are in (or it failed): until then the list is the way to them.
  const canRemove =
    (upload.state === 'failed' && upload.final) ||
    (upload.state === 'sent' &&
      (upload.detailsState === 'sent' || upload.status === 'error' || upload.status === 'deleting'));
  const wantsDetails =
    variant === 'row' &&
    !(upload.state === 'failed' && upload.final) &&
    (upload.detailsState === 'none' || upload.detailsState === 'failed');

  return (
    <article className={`upload-item is-${variant} tone-${told.tone}`} aria-label={titleOf(upload)}>
      <UploadThumb upload={upload} />
      <div className="upload-item-body">
        <div className="upload-item-top">
          <Heading className="upload-item-title">{titleOf(upload)}</Heading>
          {told.badge && <span className={`upload-badge is-${told.badge.status}`}>{told.badge.text}</span>}
        </div>
        <p className="upload-item-meta">{meta}</p>
        {told.progress !== null && (
          <div
            className="upload-bar"
            role="progressbar"
            aria-label={`Upload of ${titleOf(upload)}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.floor(told.progress * 100)}
          >
            {told.inFlight ? (
              <span
                className="upload-bar-wire"
                style={{ width: `${Math.min(100, (told.progress + told.inFlight) * 100)}%` }}
              />
            ) : null}
            <span style={{ width: `${Math.min(100, told.progress * 100)}%` }} />
          </div>
        )}
        <p className="upload-item-line">{told.line}</p>
        {told.detail && <p className="upload-item-detail">{told.detail}</p>}
        <div className="upload-item-actions">
          {wantsDetails && (
            <Link className="upload-action is-primary" to={`/upload?upload=${upload.id}`}>
              {upload.detailsState === 'failed' ? 'Edit details' : 'Add details'}
            </Link>
          )}
          {upload.state === 'signin' && (
            <Link className="upload-action is-primary" to="/login" state={{ from: '/upload' }}>
              Sign in
            </Link>
          )}
          {canPause && (
            <button type="button" className="upload-action" onClick={() => void uploads.pause(upload.id)}>
              <PauseIcon aria-hidden="true" />
              Pause
            </button>
          )}
          {upload.state === 'paused' && (
            <button type="button" className="upload-action" onClick={() => void uploads.resume(upload.id)}>
              <PlayIcon aria-hidden="true" />
              Resume
            </button>
          )}
          {upload.state === 'failed' && !upload.final && !upload.needsFile && (
            <button type="button" className="upload-action" onClick={() => void uploads.resume(upload.id)}>
              <RetryIcon aria-hidden="true" />
              Try again
            </button>
          )}
          {upload.needsFile && (
            <>
              <button type="button" className="upload-action" onClick={() => picker.current?.click()}>
                <RetryIcon aria-hidden="true" />
                Choose the file again
              </button>
              <input
                ref={picker}
                type="file"
                accept="video/*"
                hidden
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) void uploads.replaceFile(upload.id, file);
                  event.target.value = '';
                }}
              />
            </>
          )}
          {canCancel && (
            <button type="button" className="upload-action is-quiet" onClick={() => setConfirming(true)}>
              <CloseIcon aria-hidden="true" />
              Cancel
            </button>
          )}
          {canRemove && (
            <button
              type="button"
              className="upload-action is-quiet"
              onClick={() => void uploads.dismiss(upload.id)}
            >
              <CloseIcon aria-hidden="true" />
              Remove from list
            </button>
          )}
        </div>
      </div>
      {confirming && (
        <ConfirmDialog
          title="Cancel this upload?"
          text="What was sent so far is dropped, and the copy on this device is deleted."
          confirmLabel="Cancel upload"
          cancelLabel="Keep uploading"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void uploads.cancel(upload.id);
          }}
        />
      )}
    </article>
  );
}
