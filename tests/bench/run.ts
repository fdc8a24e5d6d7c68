// `npm run bench`: runs each benchmark in turn and prints its figures with the machine it ran on.
import os from 'node:os';
import { startupBench } from './startup.bench';

const benches: [string, () => Promise<Record<string, string>>][] = [['startup', startupBench]];

console.log(
  `node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
);
for (const [name, bench] of benches) {
  console.log(`\n## ${name}`);
  const figures = await bench();
  for (const [label, value] of Object.entries(figures)) console.log(`  ${label}: ${value}`);
}
