// The device copy of each file until the server has every byte. In the Origin Private File System where the
// browser can write to it from a page (Chromium, Firefox, Safari 26): a real file, as large as the quota
// allows, that survives reloads and browser restarts. Elsewhere a Blob in IndexedDB, which every browser
// keeps on disk too. Either way the copy is read back in slices as tus sends it, never as a whole.
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { isQuotaError } from '../../api/errors';

let blobStore: UseStore | undefined;
const blobs = () => {
  blobStore ??= createStore('shortcams-upload-files', 'files');
  return blobStore;
};

export type CopyPlace = 'opfs' | 'idb';

/** Thrown when the device has no room for the copy: the screens say `messages.storageFull`. */
export class StorageFullError extends Error {
  constructor(cause?: unknown) {
    super('storage full', { cause });
    // The name every browser gives a quota refusal, so errorText words it as messages.storageFull.
    this.name = 'QuotaExceededError';
  }
}

async function uploadsDirectory(): Promise<FileSystemDirectoryHandle | null> {
  if (typeof navigator === 'undefined' || typeof navigator.storage?.getDirectory !== 'function') return null;
  try {
    const root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle('uploads', { create: true });
  } catch {
    // Private windows of some browsers have the API and refuse it.
    return null;
  }
}

/** Whether a page can write files into the OPFS here (Safari before 26 only can from a worker). */
async function opfsWritable(): Promise<FileSystemDirectoryHandle | null> {
  const dir = await uploadsDirectory();
  if (!dir || typeof FileSystemFileHandle === 'undefined') return null;
  return 'createWritable' in FileSystemFileHandle.prototype ? dir : null;
}

/**
 * Free room on the device, when the browser tells (quota minus usage). A copy that cannot fit is refused
 * before a byte is written, rather than failing at 90 %.
 */
async function roomLeft(): Promise<number | null> {
  try {
    const { quota, usage } = (await navigator.storage?.estimate?.()) ?? {};
    return typeof quota === 'number' && typeof usage === 'number' ? quota - usage : null;
  } catch {
    return null;
  }
}

/** Asks the browser not to evict the app's storage under pressure (granted silently to installed apps). */
export async function askPersistence(): Promise<void> {
  try {
    if (navigator.storage?.persist && !(await navigator.storage.persisted?.()))
      await navigator.storage.persist();
  } catch {
    // Refused or unsupported: the copy still works, it may only be evicted under storage pressure.
  }
}

/** Copies `file` onto the device under `id`, reporting bytes copied; where it went. */
export async function saveCopy(
  id: string,
  file: Blob,
  onProgress?: (bytes: number) => void,
): Promise<CopyPlace> {
  const room = await roomLeft();
  // Some headroom: the browser counts its own bookkeeping against the same quota.
  if (room !== null && room < file.size + 16 * 1024 * 1024) throw new StorageFullError();
  const dir = await opfsWritable();
  if (dir) {
    try {
      const handle = await dir.getFileHandle(id, { create: true });
      const writable = await handle.createWritable();
      try {
        const reader = file.stream().getReader();
        let copied = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          await writable.write(value);
          copied += value.byteLength;
          onProgress?.(copied);
        }
        await writable.close();
      } catch (error) {
        await writable.abort().catch(() => undefined);
        throw error;
      }
      return 'opfs';
    } catch (error) {
      await dir.removeEntry(id).catch(() => undefined);
      throw isQuotaError(error) ? new StorageFullError(error) : error;
    }
  }
  try {
    await set(id, file, blobs());
  } catch (error) {
    throw isQuotaError(error) ? new StorageFullError(error) : error;
  }
  onProgress?.(file.size);
  return 'idb';
}

/** The device copy, read lazily (a File backed by the disk, or the stored Blob); null when it is gone. */
export async function openCopy(id: string, place: CopyPlace): Promise<Blob | null> {
  if (place === 'idb') return (await get<Blob>(id, blobs())) ?? null;
  const dir = await uploadsDirectory();
  if (!dir) return null;
  try {
    return await (await dir.getFileHandle(id)).getFile();
  } catch {
    return null;
  }
}

export async function removeCopy(id: string, place: CopyPlace | null): Promise<void> {
  if (place === 'idb') await del(id, blobs()).catch(() => undefined);
  if (place === 'opfs') await (await uploadsDirectory())?.removeEntry(id).catch(() => undefined);
}
