import { type DragEvent, useId, useRef, useState } from 'react';
import { errorText } from '../../api/errors';
import { messages } from '../../contract';
import { uploads } from '../../offline/uploads';
import { UploadIcon } from '../../ui/more-icons';
import { checkVideoFile, FileRefused } from './checkFile';

/**
 * Step 1 (spec §4): a video dropped here or chosen with the button (a real button, so the keyboard reaches
 * it) is checked on the device, then handed to the queue; `onAccepted` opens the details step at once.
 */
export function Dropzone({ onAccepted }: { onAccepted: (uploadId: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  async function take(file: File | undefined) {
    if (!file || checking) return;
    setError(null);
    setChecking(true);
    try {
      const checked = await checkVideoFile(file);
      onAccepted(await uploads.add(file, checked));
    } catch (failure) {
      setError(
        failure instanceof FileRefused
          ? failure.message
          : errorText(failure, { fallback: messages.upload.failed(messages.server.internal) }),
      );
    } finally {
      setChecking(false);
    }
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void take(event.dataTransfer.files[0]);
  };

  return (
    <section
      className={`dropzone${over ? ' is-over' : ''}`}
      aria-labelledby={titleId}
      onDragEnter={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragOver={(event) => event.preventDefault()}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <div className="dropzone-badge" aria-hidden="true">
        <UploadIcon />
      </div>
      <h2 id={titleId} className="dropzone-title">
        <span className="for-fine-pointer">Drag and drop a video</span>
        <span className="for-touch">Upload a video</span>
      </h2>
      <p className="dropzone-text">
        <span className="for-fine-pointer">or choose one from your computer.</span>
        <span className="for-touch">Pick one from your gallery or files.</span>
      </p>
      <button
        type="button"
        className="btn btn-primary dropzone-button"
        onClick={() => input.current?.click()}
        disabled={checking}
        aria-busy={checking}
      >
        {checking && <span className="upload-spinner" aria-hidden="true" />}
        {checking ? 'Checking the video…' : 'Choose a video'}
      </button>
      <input
        ref={input}
        type="file"
        accept="video/*"
        hidden
        onChange={(event) => {
          void take(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <p className="dropzone-hint">MP4, MOV or WebM · up to 30 minutes and 2 GB</p>
      <div className="dropzone-error" role="alert">
        {error && <p className="upload-error">{error}</p>}
      </div>
    </section>
  );
}
