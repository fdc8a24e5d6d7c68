import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { transform } from 'esbuild';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

// The API listens on its own port during `npm run dev`; in production one server serves both.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8081'}`;

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * Writes .br and .gz next to every text asset of the build, which the server sends as is
 * (@fastify/static preCompressed): the best compression at no cost per request. It runs last, after
 * vite-plugin-pwa has written sw.js in its own closeBundle: the worker (35 KB, 11 KB gzipped) is fetched on
 * every visit to check for an update, so it travels compressed too (issue 17).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'shortcams:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
        for (const entry of entries) {
          if (!entry.isFile() || !/\.(?:js|css|html|svg|webmanifest|json)$/.test(entry.name)) continue;
          const file = path.join(entry.parentPath, entry.name);
          const bytes = await readFile(file);
          if (bytes.length < 1024) continue;
          await writeFile(
            `${file}.br`,
            brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
          await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        }
      },
    },
  };
}

/**
 * The first screen's chunks (its lazy module and what it imports) as <link rel=modulepreload> in index.html:
 * the browser fetches them beside the entry instead of one round trip after it, when the router asks for the
 * lazy screen (issue 17: a request chain before the first frame, and Lighthouse's load delay on /discover).
 * Its CSS is preloaded too, not applied. The one index.html opens every route, and another screen's 20-30 KB
 * would only compete with the one shown: each screen's links wait in an inert <template>, and paintFirst's
 * start script puts in the head those whose paths match.
 */
const PRELOADED_SCREENS = [
  {
    module: /[\\/]features[\\/]feed[\\/]FeedScreen\.tsx$/,
    // The feed routes of src/app/router.tsx (opensOnFeed): home, any `.../feed`, a shared video, a tag's
    // video. A route missing here only loses the head start; the router still loads its screen.
    paths: '^/$|/feed$|^/video/|^/tag/[^/]+/(recommended|videos)/',
  },
  { module: /[\\/]features[\\/]discover[\\/]DiscoverScreen\.tsx$/, paths: '^/discover$' },
];

function preloadFirstScreen(): Plugin {
  return {
    name: 'shortcams:preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const templates = PRELOADED_SCREENS.map(({ module, paths }) => {
          const screen = chunks.find((c) => module.test(c.facadeModuleId ?? ''));
          if (!screen) throw new Error(`preload-first-screen: no chunk for ${module}`);
          const files = new Set<string>();
          const css = new Set<string>();
          const visit = (fileName: string) => {
            const chunk = bundle[fileName];
            if (chunk?.type !== 'chunk' || files.has(fileName)) return;
            files.add(fileName);
            for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
            for (const imported of chunk.imports) visit(imported);
          };
          visit(screen.fileName);
          const tags = [...files]
            .filter((file) => !html.includes(`/${file}"`))
            .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
            .concat(
              [...css]
                .filter((file) => !html.includes(`/${file}"`))
                .map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
            );
          return `<template data-preload-paths="${paths}">\n      ${tags.join('\n      ')}\n    </template>`;
        });
        // paintFirst's start script puts in the head those whose paths match.
        return html.replace('</head>', `  ${templates.join('\n    ')}\n  </head>`);
      },
    },
  };
}

/**
 * The splash in index.html paints before anything of the app runs (issue 17: Lighthouse's first contentful
 * paint, and what a viewer sees first on a slow phone):
 * - the app's stylesheets are preloads, applied by main.tsx just before its first render (src/app/styles.ts),
 *   so neither the first paint nor the modules (which a pending stylesheet holds back) wait for them;
 * - the entry module is started by a small inline script after the next frame, so its evaluation (React and
 *   all) comes after the splash is on screen, not before;
 * - the app's files (the entry's modules and stylesheets, the first screen's) are asked for by that script
 *   too, from an inert <template>: nothing but the document and the first screen's data is on the network
 *   before the first paint. A frame costs a real phone a few ms here, and Lighthouse's simulation of a
 *   slow phone counts every request started before the first paint as holding it back (its first
 *   contentful paint on / was 2.1 s for a splash painted at 0.2 s).
 * Nothing renders unstyled: the splash has its own inline style, and the app waits for the stylesheets.
 */
function paintFirst(): Plugin {
  return {
    name: 'shortcams:paint-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(html);
        if (!entry) throw new Error('paint-first: no entry module script in index.html');
        // The same text in every build (the entry's name is read from its preload link): the CSP allows
        // inline scripts by hash, and a server that reads the hashes at start keeps allowing a new build's.
        const start =
          // A frame, then a task: the splash has painted. The timeout covers a hidden tab, where frames wait.
          '(()=>{let started=false;const start=()=>{if(started)return;started=true;' +
          'const add=(t)=>document.head.append(document.importNode(t.content,true));' +
          'add(document.getElementById("app-files"));' +
          'const p=location.pathname.replace(/\\/$/,"")||"/";' +
          'for(const t of document.querySelectorAll("template[data-preload-paths]"))' +
          'if(new RegExp(t.dataset.preloadPaths).test(p))add(t);' +
          'const s=document.createElement("script");s.type="module";s.crossOrigin="anonymous";' +
          's.src=document.querySelector("link[data-app-entry]").href;document.head.append(s);};' +
          // index.html's boot script may hold them until the first video's first frame (__shortcamsHold).
          'const go=()=>{const h=window.__shortcamsHold;h?h.then(start):start();};' +
          'requestAnimationFrame(()=>setTimeout(go,0));setTimeout(go,100);})();';
        const files = html.match(
          /<link rel="(?:modulepreload|stylesheet)" crossorigin href="\/assets\/[^"]+">/g,
        );
        if (!files) throw new Error('paint-first: no module or stylesheet links in index.html');
        const template = [
          `<link rel="modulepreload" crossorigin href="${entry[1]}" data-app-entry>`,
          ...files.map((link) =>
            link.replace(
              /^<link rel="stylesheet" (.*)>$/,
              '<link rel="preload" as="style" $1 data-app-style>',
            ),
          ),
        ];
        const moved = new Set<string>([entry[0], ...files]);
        return html
          .split('\n')
          .filter((line) => !moved.has(line.trim()))
          .join('\n')
          .replace(
            '</head>',
            `  <template id="app-files">\n      ${template.join('\n      ')}\n    </template>\n  </head>`,
          )
          .replace('</body>', `  <script>${start}</script>\n  </body>`);
      },
    },
  };
}

/**
 * index.html as it travels: its inline boot script and style minified and its comments gone. They are written
 * for people (the boot script is mostly comments), and every visit the service worker does not serve downloads
 * the page before anything else (as does each update the worker installs): 4.3 KB brotli as written, 2.6 KB
 * so. Last among the page's transforms, so that what the others inline is included. The same source gives the
 * same text in every build, which the Content-Security-Policy's hashes of the inline scripts
 * (server/http/security.ts) rely on.
 */
function compactShell(): Plugin {
  const minify = async (code: string, loader: 'js' | 'css') =>
    (
      await transform(code, { loader, minify: true, ...(loader === 'js' ? { target: 'es2022' } : {}) })
    ).code.trim();
  return {
    name: 'shortcams:compact-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        let out = html.replace(/<!--[\s\S]*?-->\s*/g, '');
        for (const [tag, loader] of [
          ['script', 'js'],
          ['style', 'css'],
        ] as const) {
          // Only attribute-less blocks, the inline ones: `<script type="module" src>` stays as it is.
          const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g');
          const bodies = [...out.matchAll(pattern)].map((match) => match[1] ?? '');
          const minified = await Promise.all(bodies.map((body) => minify(body, loader)));
          let i = 0;
          out = out.replace(pattern, () => `<${tag}>${minified[i++]}</${tag}>`);
        }
        return out;
      },
    },
  };
}

/**
 * React Router's package names only its development build in its exports, for production builds too
 * (remix-run/react-router#14102, open). That build differs from the production one it also ships by a single
 * constant, ENABLE_DEV_WARNINGS, which keeps every development warning and its text in the app's first load.
 * Builds take the production file; `npm run dev` and the unit tests keep the warnings.
 */
function reactRouterProduction(): Plugin {
  const dir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  return {
    name: 'shortcams:react-router-production',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [{ find: /^react-router$/, replacement: path.join(dir, 'dist/production/index.mjs') }],
      },
    }),
    // Its components are made at the top level by unannotated React.forwardRef calls and given a displayName
    // (for DevTools) there, which a bundler must keep in case they have effects: <Form> and the submission
    // code behind it shipped although no screen renders React Router's forms (1.3 KB gzipped). Marked pure
    // and without the names, what nothing uses is dropped. Only a few lines' columns move, so the sourcemap
    // is kept as it was (map: null); a release that changes these lines is left as it is.
    transform: {
      filter: { id: /react-router[\\/]dist[\\/]production[\\/]/ },
      handler(code) {
        const marked = code
          .replace(/= (React\d*\.forwardRef\()/g, '= /* @__PURE__ */ $1')
          .replace(/^\w+\.displayName = "[^"]*";$/gm, '');
        return marked === code ? null : { code: marked, map: null };
      },
    },
  };
}

/** The API suite's files that replace a server module with vi.mock (run isolated: see the projects). */
const API_MOCKING_FILES = ['tests/api/image-limits.test.ts'];
const API_SUITE = {
  globalSetup: 'tests/api/global-setup.ts',
  environment: 'node' as const,
  // PGlite and ffmpeg are CPU bound, so two files at a time match this 2-core machine.
  maxWorkers: 2,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  define: {
    // Shown in the menu; APP_VERSION lets a deployment (or the update e2e test) stamp its own build.
    __APP_VERSION__: JSON.stringify(process.env.APP_VERSION ?? version),
  },
  plugins: [
    react(),
    reactRouterProduction(),
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
    // paintFirst first: it moves the entry's own links into its template, and the screens' templates
    // (added after) must stay out of that move.
    paintFirst(),
    preloadFirstScreen(),
    compactShell(),
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
    // dist/.vite/manifest.json: which chunks a route pulls in, for the bundle-size bench.
    manifest: true,
    rolldownOptions: {
      output: {
        // The libraries every screen needs travel as one file: a dozen tiny shared chunks cost more gzipped
        // (no shared dictionary) and more requests than one.
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router|jotai|idb-keyval)[\\/]/,
            },
            {
              // Every app module the entry imports ($initial): one file rather than a dozen tiny ones, since on
              // HTTP/1.1 each waits for one of six connections, the first video's playlist behind them (issue
              // 17). Not main.tsx itself: it awaits the first screen, whose chunk imports this one, and a chunk
              // waiting on its own importer never finishes loading.
              name: 'shell',
              test: /[\\/]src[\\/](?!main\.tsx)|vite[\\/]preload-helper/,
              tags: ['$initial'],
            },
            {
              // What the first screens (the home feed, discover) import of the shared UI and API modules: one
              // file for them, not one per component. Modules of src/ui that other screens alone use stay with
              // them.
              name: 'kit',
              test: /[\\/]src[\\/](?:ui[\\/](?:Avatar|BackButton|CreatorChip|ScreenHeader|Sheet|SignupSheet|VideoTile|format)\.|api[\\/](?:errors|useRequest)\.)/,
            },
          ],
        },
      },
    },
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
          // One page and one module graph per worker, not per file: 30 s -> 14 s, most of it happy-dom's
          // start. setup.ts undoes what a file stubbed once the file is done.
          isolate: false,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          exclude: API_MOCKING_FILES,
          ...API_SUITE,
          // Each file builds its own app on a database of its own, so a worker's files share nothing but the
          // modules: loading the server's modules once per worker instead of once per file took the suite
          // from 244 s (448 CPU-seconds) to 188 s (334). Module state that outlives a file is keyed by the
          // database (WeakMaps) or is configuration.
          isolate: false,
        },
      },
      {
        // A file that swaps a server module for a spy needs modules of its own.
        test: { name: 'api-mocks', include: API_MOCKING_FILES, ...API_SUITE },
      },
      {
        test: {
          // PostgreSQL, Redis, an S3 stand-in, several server processes and nginx: one file at a time.
          name: 'scale',
          include: ['tests/scale/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
