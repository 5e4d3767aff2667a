// Notebook benchmark (issue 8, item 5): our .ipynb export and import against Python's nbformat.
// Run: npx tsx bench/notebook.bench.ts   (prints a table, writes bench/results/notebook.json)
//
// tsx reads the root tsconfig.json, which maps no paths, and the app's code imports values from
// '@contract'; so the measuring module is loaded with tsconfig.node.json, where that alias lives.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const here = dirname(fileURLToPath(import.meta.url));
await tsImport('./notebook-measure.ts', { parentURL: import.meta.url, tsconfig: join(here, '..', 'tsconfig.node.json') });
