#!/usr/bin/env node
// `oi` (npx oi from the repo): runs the built CLI. The CLI is bundled with the app by `npm run build`
// (out/main/cli.js); from a checkout that was not built, say so instead of failing on a missing file.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out', 'main', 'cli.js');
if (!existsSync(built)) {
  process.stderr.write(
    `oi: the CLI is not built yet (${built} is missing).\nRun \`npm run build\` in ${root}, or run it from source with \`npm run oi -- <options>\`.\n`,
  );
  process.exit(1);
}
await import(pathToFileURL(built).href);
