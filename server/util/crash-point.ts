// A test hook for crash windows. With SHORTCAMS_CRASH_POINT=<name> in its environment, the process stops
// for good when it reaches that point: it prints `[crash-point] <name>` and waits, so that a test can kill -9
// it exactly there instead of racing a timer. Unset (always, outside those tests), it does nothing.

export const CRASH_POINT_ENV = 'SHORTCAMS_CRASH_POINT';

export async function crashPoint(name: string): Promise<void> {
  if (process.env[CRASH_POINT_ENV] !== name) return;
  console.log(`[crash-point] ${name}`);
  await new Promise<never>(() => {});
}
