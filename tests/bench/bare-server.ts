// The bare baseline of the throughput benches: a node:http server that answers every request with the same
// bytes as the API did. It runs in a process of its own, as the API server does; in the bench's process it
// would share the event loop with autocannon, and the ratio would compare two setups instead of two servers.
import { spawn } from 'node:child_process';

/** Run by `node -e`: it gets the body over IPC and answers with its port. Request bodies (posts) are read. */
const BARE_SERVER = `
const http = require('node:http');
process.once('message', ({ base64, headers }) => {
  const body = Buffer.from(base64, 'base64');
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, ...headers });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
});
`;

/**
 * Starts a bare server answering `body` (as the API sent it: compressed where it was, with its
 * Content-Encoding in `headers`); `url` has no trailing slash.
 */
export async function startBareServer(body: Buffer, headers: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(Number(message)));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    child.send({ base64: body.toString('base64'), headers });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
