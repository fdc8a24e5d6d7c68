/**
 * Runs `task` now and then every `ms`, one run at a time (a slow run delays the next instead of overlapping
 * it). The returned function stops the timer and resolves once the run under way, if any, has finished, so
 * that what the task uses (the database) may then be closed. A failure is logged and the next run goes on.
 */
export function repeatEvery(
  ms: number,
  task: () => Promise<void>,
  onError: (err: Error) => void,
): () => Promise<void> {
  let running = Promise.resolve();
  const run = () => {
    running = running.then(() => task().catch((err: Error) => onError(err)));
  };
  const timer = setInterval(run, ms);
  // A background chore never keeps the process alive on its own.
  timer.unref();
  run();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
