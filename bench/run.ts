// `npm run bench`: runs every bench/*.bench.ts one after another, each in its own process so one
// benchmark's memory and JIT state cannot colour the next. `npm run bench -- notebook exec` runs only
// those. Each benchmark prints its table and writes bench/results/<name>.json.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; there are: ${all.join(', ')}`);
  process.exit(2);
}

const failed: string[] = [];
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n== ${name} ==`);
  // tsconfig.node.json maps '@contract', which the app's code imports; the root tsconfig.json maps nothing.
  const env = { ...process.env, TSX_TSCONFIG_PATH: join(here, '..', 'tsconfig.node.json') };
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${name}.bench.ts`)], { stdio: 'inherit', env });
  if (run.status !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
