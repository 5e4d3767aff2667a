import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

// The folder: '@contract' resolves to its index.ts, '@contract/limits' (and the like) to one module,
// which keeps zod and the contract's schemas out of the renderer's first chunk.
const contract = fileURLToPath(new URL('./src-preload/contract', import.meta.url));
const alias = { '@contract': contract };

/** The dev server's hot reload needs inline scripts; the built app keeps the strict policy. */
const relaxCspForDevServer: Plugin = {
  name: 'oi-relax-csp-in-dev',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[\s\S]*?\/>/, ''),
};

// One build for the desktop app and for plain Node: the main bundle also carries browser mode's
// server and the `oi` CLI, which import no electron and run under `node`.
export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      // Pure-JS dependencies go into the bundle: resolving and reading their hundreds of files at
      // every start cost more than the code itself (bench/startup.bench.ts). Native modules (node-pty,
      // the keyring), Electron, ws (optional native helpers) and the Jupyter client (loaded only for a
      // remote kernel) stay external.
      externalizeDeps: { exclude: ['zod', 'openai', '@anthropic-ai/sdk', 'atomically', 'partial-json', 'js-tiktoken', 'ignore', 'ws'] },
      lib: {
        entry: {
          index: 'src-main/electron/main.ts',
          serve: 'src-main/server/main.ts',
          cli: 'src-main/cli/main.ts',
          // The checkpoints' change journal runs in a worker thread of its own (change-journal.ts).
          'checkpoint-journal': 'src-main/core/checkpoints/journal-worker.ts',
        },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require() npm packages at run time: bundle everything it uses.
      externalizeDeps: false,
      lib: { entry: { index: 'src-preload/index.ts' } },
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'src-renderer',
    resolve: { alias },
    plugins: [react(), relaxCspForDevServer],
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified; React 19 ships its production build unminified
      // too, and parsing that was most of the time before the window could be used.
      minify: true,
      rollupOptions: { input: fileURLToPath(new URL('./src-renderer/index.html', import.meta.url)) },
    },
  },
});
