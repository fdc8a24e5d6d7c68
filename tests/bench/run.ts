// `npm run bench`: runs each benchmark in turn and prints its figures with the machine it ran on.
import os from 'node:os';
import { catalogueBench } from './catalogue.bench';
import { firstFrameVsBareBench } from './first-frame.bench';
import { loginBench } from './login.bench';
import { moderationBench } from './moderation.bench';
import { networkBench } from './network.bench';
import { playerBench } from './player.bench';
import { pwaBench } from './pwa.bench';
import { serverBench } from './server.bench';
import { startupBench } from './startup.bench';
import { transcodeBench } from './transcode.bench';
import { uploadBench } from './upload.bench';

const benches: [string, () => Promise<Record<string, string>>][] = [
  ['startup', startupBench],
  ['server under a crowd', serverBench],
  ['logins during a guessing flood', loginBench],
  ['catalogue', catalogueBench],
  ['operator queues', moderationBench],
  ['feed player in Chromium', playerBench],
  ['first frame vs bare video', firstFrameVsBareBench],
  ['upload and transcode', transcodeBench],
  ['upload', uploadBench],
  ['PWA shell: bundle, Lighthouse, offline reload', pwaBench],
  ['network', networkBench],
];

// `npm run bench -- feed` runs only the benchmarks whose name contains "feed"; a name given whole runs alone
// (`npm run bench -- upload` is the upload queue, not also "upload and transcode").
const only = process.argv.slice(2).join(' ');
const exact = benches.filter(([name]) => name === only);

console.log(
  `node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
);
for (const [name, bench] of exact.length ? exact : benches.filter(([name]) => !only || name.includes(only))) {
  console.log(`\n## ${name}`);
  const figures = await bench();
  for (const [label, value] of Object.entries(figures)) console.log(`  ${label}: ${value}`);
}
