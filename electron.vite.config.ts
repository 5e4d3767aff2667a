import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const contract = fileURLToPath(new URL('./src-preload/contract/index.ts', import.meta.url));
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
      externalizeDeps: { exclude: ['zod', 'openai', '@anthropic-ai/sdk', 'conf', 'partial-json', 'js-tiktoken'] },
      lib: {
        entry: {
          index: 'src-main/electron/main.ts',
          serve: 'src-main/server/main.ts',
          cli: 'src-main/cli/main.ts',
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
      rollupOptions: { input: fileURLToPath(new URL('./src-renderer/index.html', import.meta.url)) },
    },
  },
});
