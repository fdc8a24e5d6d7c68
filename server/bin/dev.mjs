// `npm run dev`: the API in watch mode on API_PORT (8081) and Vite with hot reload on PORT (8080),
// proxying /v1 and /media to the API (see vite.config.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const apiPort = process.env.API_PORT ?? '8081';
const webPort = process.env.PORT ?? '8080';
const children = [
  spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', 'server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, PUBLIC_URL: `http://localhost:${webPort}` },
  }),
  spawn(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), '--port', webPort, '--strictPort'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, API_PORT: apiPort },
    },
  ),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
