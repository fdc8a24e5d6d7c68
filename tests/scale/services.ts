// The parts of a scaled-out deployment, started on loopback for the scale tests: PostgreSQL (DATABASE_URL,
// or a throw-away cluster from Debian's packages), Redis (Debian's redis-server), an S3-compatible stand-in
// (s3rver, in place of S3, MinIO or R2), API and worker nodes (server/main.ts), and nginx in front.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import S3rver from 's3rver';
import { ensureServerBuilt } from '../../server/bin/build-server.mjs';
import type { S3Config } from '../../server/config';
import { s3Client } from '../../server/media/storage';
import { createPostgresDatabase } from '../api/helpers';
import { freePort } from '../e2e/server';

const root = path.resolve(import.meta.dirname, '../..');

export interface Service {
  stop(): Promise<void>;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`${what} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Debian's binaries live outside PATH for a normal user (/usr/sbin, /usr/lib/postgresql/N/bin). */
function binary(name: string, dirs: string[]): string {
  for (const dir of [...(process.env.PATH ?? '').split(':'), ...dirs]) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`${name} not found: install it (apt-get install ${name === 'nginx' ? 'nginx' : name})`);
}

const pgBinDirs = () =>
  fs.existsSync('/usr/lib/postgresql')
    ? fs
        .readdirSync('/usr/lib/postgresql')
        .sort()
        .reverse()
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];

/**
 * A fresh database: on DATABASE_URL's server when set (as CI does), else on a throw-away cluster of
 * Debian's PostgreSQL (initdb refuses root, so it runs as the postgres user then).
 */
export async function startPostgres(): Promise<Service & { url: string }> {
  if (process.env.DATABASE_URL) {
    const db = await createPostgresDatabase(process.env.DATABASE_URL);
    return { url: db.url, stop: db.drop };
  }
  const bin = (name: string) => binary(name, pgBinDirs());
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'shortcams-scale-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (cmd: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : cmd, asRoot ? ['-u', 'postgres', '--', cmd, ...args] : args, {
      stdio: 'ignore',
    });
  const port = await freePort();
  run(bin('initdb'), ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  run(bin('pg_ctl'), [
    '-D',
    `${dir}/data`,
    '-l',
    `${dir}/log`,
    '-w',
    '-o',
    `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      run(bin('pg_ctl'), ['-D', `${dir}/data`, '-m', 'immediate', 'stop']);
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Debian's redis-server, without persistence; `port` starts it again where a stopped one listened. */
export async function startRedis(port?: number): Promise<Service & { url: string; port: number }> {
  port ??= await freePort();
  const child = spawn(
    binary('redis-server', ['/usr/bin', '/usr/sbin']),
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const { Redis } = await import('ioredis');
  await waitFor('redis-server', async () => {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    // Refused until the server listens: that is what the wait is for.
    probe.on('error', () => {});
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } finally {
      probe.disconnect();
    }
  });
  return { url, port, stop: () => stopChild(child) };
}

type KoaContext = {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  body: unknown;
  type: string;
  get(name: string): string;
  response: { get(name: string): string };
};

/**
 * ListParts, which @tus/s3-store asks to learn an upload's offset, is the one call it makes that s3rver
 * lacks: answered here from the UploadPart requests s3rver took (part number, ETag, size), in front of its
 * own routes (Koa composes its middleware when it starts listening).
 */
function addListParts(server: S3rver) {
  const parts = new Map<string, Map<number, { etag: string; size: number }>>();
  const middleware = (server as unknown as { middleware: unknown[] }).middleware;
  middleware.unshift(async (ctx: KoaContext, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId;
    if (!uploadId) return next();
    if (ctx.method === 'GET' && !ctx.query.partNumber) {
      const [, bucket = '', ...key] = ctx.path.split('/');
      const list = [...(parts.get(uploadId) ?? new Map()).entries()].sort(([a], [b]) => a - b);
      ctx.status = 200;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        `<Bucket>${bucket}</Bucket><Key>${key.join('/')}</Key><UploadId>${uploadId}</UploadId>` +
        `<IsTruncated>false</IsTruncated>${list
          .map(
            ([n, p]) =>
              `<Part><PartNumber>${n}</PartNumber><ETag>${p.etag}</ETag><Size>${p.size}</Size></Part>`,
          )
          .join('')}</ListPartsResult>`;
      return;
    }
    await next();
    if (ctx.method === 'PUT' && ctx.query.partNumber && ctx.status === 200) {
      const upload = parts.get(uploadId) ?? new Map();
      upload.set(Number(ctx.query.partNumber), {
        etag: ctx.response.get('ETag'),
        size: Number(ctx.get('content-length')),
      });
      parts.set(uploadId, upload);
    }
  });
}

/** s3rver, in this process: a stand-in for S3, MinIO or R2, with one bucket. */
export async function startS3(): Promise<Service & { s3: S3Config; env: Record<string, string> }> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'shortcams-scale-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: dir,
    silent: !process.env.SCALE_S3_LOG,
  });
  addListParts(server);
  const { port } = (await server.run()) as { port: number };
  const s3: S3Config = {
    bucket: 'shortcams-media',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  await s3Client(s3).send(new CreateBucketCommand({ Bucket: s3.bucket }));
  return {
    s3,
    env: {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint as string,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      await server.close();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Node extends Service {
  name: string;
  url: string;
  port: number;
  process: ChildProcess;
  /** kill -9 of the node and of what it spawned (ffmpeg): a crash, not a shutdown. */
  crash(): Promise<void>;
  output(): string;
}

/** One compiled server process, as `npm start` runs it: an API node (RUN_WORKERS=false) or a worker node. */
export async function startNode(name: string, env: Record<string, string>, port?: number): Promise<Node> {
  const listen = port ?? (await freePort());
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), `shortcams-scale-${name}-`));
  const child = spawn(process.execPath, [await ensureServerBuilt()], {
    cwd: root,
    // Its own process group, so that a crash takes its ffmpeg with it, as a machine going down would.
    detached: true,
    env: {
      ...process.env,
      PORT: String(listen),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${listen}`,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      DIST_DIR: path.join(dataDir, 'no-dist'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${listen}`;
  // Generous: a busy machine (ffmpeg of the other nodes) slows a start many times over.
  await waitFor(
    `node ${name}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`node ${name} exited:\n${output}`);
      return (await fetch(`${url}/healthz`)).ok;
    },
    300_000,
  ).catch((err: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${output.slice(-2000)}`);
  });
  const cleanup = () => fsp.rm(dataDir, { recursive: true, force: true });
  return {
    name,
    url,
    port: listen,
    process: child,
    output: () => output,
    async crash() {
      const exited = new Promise((r) => child.once('exit', r));
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
      await exited;
      await cleanup();
    },
    async stop() {
      await stopChild(child);
      await cleanup();
    },
  };
}

/** Debian's nginx in front of the API nodes, as the README's recipe sets it up. */
export async function startNginx(
  upstreams: number[],
): Promise<Service & { url: string; errorLog(): Promise<string> }> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'shortcams-scale-nginx-'));
  // Workers run as nobody when the master is root: they need to reach their temp folders.
  await fsp.chmod(dir, 0o755);
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    await fsp.mkdir(path.join(dir, sub));
    await fsp.chmod(path.join(dir, sub), 0o777);
  }
  const port = await freePort();
  const template = await fsp.readFile(path.join(import.meta.dirname, 'nginx.conf'), 'utf8');
  const conf = template
    .replaceAll('{{DIR}}', dir)
    .replace('{{PORT}}', String(port))
    .replace('{{UPSTREAMS}}', upstreams.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join('\n    '));
  await fsp.writeFile(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(
    binary('nginx', ['/usr/sbin']),
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor('nginx', async () => (await fetch(`${url}/healthz`)).ok);
  return {
    url,
    /** nginx's error log (warn and above): which node a failed request went to, and what it met. */
    errorLog: () => fsp.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => ''),
    async stop() {
      await stopChild(child, 'SIGQUIT');
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

export const randomKey = () => randomBytes(6).toString('hex');
