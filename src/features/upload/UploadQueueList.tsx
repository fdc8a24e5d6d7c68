import { useUploads } from '../../offline/uploads';
import { UploadItem } from './UploadItem';
import './upload.css';

/**
 * Every upload of the signed-in account on this device, oldest first: bytes and percent, speed and time left
 * while sending, then the server's status until the video is approved. Nothing when there are none.
 */
export function UploadQueueList({ title = 'Your uploads', exclude }: { title?: string; exclude?: string }) {
  const list = useUploads().filter((u) => u.id !== exclude);
  if (list.length === 0) return null;
  return (
    <section className="upload-queue" aria-labelledby="upload-queue-title">
      <h2 id="upload-queue-title" className="upload-queue-title">
        {title}
      </h2>
      <ul className="upload-queue-list">
        {list.map((upload) => (
          <li key={upload.id}>
            <UploadItem upload={upload} />
          </li>
        ))}
      </ul>
    </section>
  );
}
