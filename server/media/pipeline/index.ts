// The media pipeline as the rest of the server and the tests use it; README.md says which module does what.
export { acceptUpload, type UploadOutcome } from './accept';
export { UNFINISHED } from './machine';
export { finishPoster, POSTER_MAX_BYTES } from './poster';
export {
  enqueue,
  liveJobsOf,
  MAX_MEDIA_ATTEMPTS,
  VIDEO_LADDER_QUEUE,
  VIDEO_PREPROCESS_QUEUE,
  VIDEO_PROCESS_QUEUE,
} from './queues';
export { discardIfDeleted, originalPath, type PipelineDeps, UNPUBLISHED_AT } from './row';
export { ladderVideo, preprocessVideo, processVideo } from './stages';
export { sweepStuckVideos } from './sweep';
export { startMediaWorkers } from './workers';
