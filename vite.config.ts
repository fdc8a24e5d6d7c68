import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a .br and a .gz beside every text file of the build, once, at maximum compression; the server
 * sends them by Accept-Encoding (@fastify/static preCompressed). On a slow phone network the shell's
 * JavaScript is most of what stands before the first video frame, and compressing per request would cost
 * CPU on every hit.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'shortcams:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After vite-plugin-pwa has written sw.js in its own closeBundle.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = await fs.readdir(outDir, { recursive: true });
        const texts = files.filter((f) => /\.(?:js|mjs|css|html|svg|webmanifest|json)$/.test(f));
        await Promise.all(
          texts.map(async (name) => {
            const file = path.join(outDir, name);
            const data = await fs.readFile(file);
            // Below about a packet, compression saves nothing a round trip would notice.
            if (data.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
              gzip(data, { level: 9 }),
            ]);
            await fs.writeFile(`${file}.br`, br);
            await fs.writeFile(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}

// The API listens on its own port during `npm run dev`; in production one server serves both.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8081'}`;

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      // The manifest is a static file in public/ so that its icons and fields are reviewable in one place.
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        // hls.js is loaded lazily and only where HLS is not native; precaching it would cost every
        // Safari user a download they never use.
        globIgnores: ['**/hls-*.js'],
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  server: {
    proxy: {
      '/v1': apiTarget,
      '/media': apiTarget,
      '/healthz': apiTarget,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // Each file builds its own app on its own database; PGlite and ffmpeg are CPU bound, so two at a
          // time matches this 2-core machine.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
