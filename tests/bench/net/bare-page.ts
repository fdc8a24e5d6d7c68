// The baseline of `npm run bench -- network`: a bare page that plays the app's playlists, in the app's order,
// one after another in one <video> with hls.js and its defaults. It is written into the bench's own copy of
// the build (/netbench/), so the real server sends it from the app's origin with the same headers (its CSP,
// precompressed twins, cache rules): no CORS, no route interception, and the media bytes cross the same link.
// The list comes in the URL's fragment, which never reaches the server. The recorder (recorder.ts) calls
// nbNext() at each video's end.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bare hls.js</title>
<link rel="stylesheet" href="/netbench/bare.css">
<script src="/netbench/hls.min.js" defer></script>
<script src="/netbench/bare.js" defer></script>
</head>
<body><video muted autoplay playsinline></video></body>
</html>
`;

const CSS =
  'html,body{margin:0;height:100%;background:#000}video{width:100vw;height:100vh;object-fit:cover}\n';

// Recovery as hls.js's documentation gives it: a network error loads again (the playlist from the start,
// anything later from where it stopped) after a second, a media error recovers the decoder. Transmuxing runs
// on the main thread (enableWorker: false): the page does nothing else, and the server's CSP allows no blob:
// worker, which hls.js would otherwise try first.
const JS = `(() => {
  const list = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  const video = document.querySelector('video');
  let index = -1;
  let hls = null;
  let retry = 0;
  const play = (i) => {
    index = i;
    clearTimeout(retry);
    video.dataset.nbIndex = String(i);
    if (hls) hls.destroy();
    const own = new Hls({ enableWorker: false });
    hls = own;
    own.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal || hls !== own) return;
      if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
        own.recoverMediaError();
        return;
      }
      retry = setTimeout(() => {
        if (hls !== own) return;
        if (/^manifest|^levelLoad/i.test(data.details)) own.loadSource(list[index % list.length]);
        else own.startLoad();
      }, 1000);
    });
    own.loadSource(list[i % list.length]);
    own.attachMedia(video);
    video.play().catch(() => {});
  };
  window.nbNext = () => play(index + 1);
  play(0);
})();
`;

/** Writes /netbench/ into a copy of the build, each text file with the .br and .gz twins the build has. */
export function writeBarePage(distDir: string) {
  const dir = path.join(distDir, 'netbench');
  fs.mkdirSync(dir, { recursive: true });
  const hls = fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../node_modules/hls.js/dist/hls.min.js'),
    'utf8',
  );
  for (const [name, text] of [
    ['bare.html', HTML],
    ['bare.css', CSS],
    ['bare.js', JS],
    ['hls.min.js', hls],
  ] as const) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text, { level: 9 }));
  }
}
