import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { ChunkingContext, CodeSplittingGroup } from 'rolldown';
import type { Plugin } from 'vite';
import { lazyAcpSchemas } from './lazy-acp-schemas.config';

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

/**
 * The page's first script (src-renderer/main.tsx) is small and loads the app's chunk (mount.tsx: React
 * and the views) with import() once it has sent the first requests. A modulepreload in index.html for
 * that chunk and what it imports lets the page fetch and compile it alongside, rather than after.
 */
const preloadAppChunk: Plugin = {
  name: 'oi-preload-app-chunk',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle, chunk: entry }) {
      if (!bundle || !entry) return html;
      const app = Object.values(bundle).find((c) => c.type === 'chunk' && c.moduleIds.some((id) => id.endsWith('/src-renderer/mount.tsx')));
      if (!app || app.type !== 'chunk') throw new Error('the build has no chunk for src-renderer/mount.tsx');
      const files: string[] = [];
      const css: string[] = [];
      const visit = (name: string): void => {
        const c = bundle[name];
        if (name === entry.fileName || files.includes(name) || c?.type !== 'chunk') return;
        files.push(name);
        css.push(...(c.viteMetadata?.importedCss ?? []));
        c.imports.forEach(visit);
      };
      visit(app.fileName);
      const link = (rel: string, file: string) => ({
        tag: 'link',
        attrs: { rel, crossorigin: true, href: `./${file}` },
        injectTo: 'head' as const,
      });
      return {
        html,
        tags: [
          ...files.filter((f) => !html.includes(f)).map((f) => link('modulepreload', f)),
          ...css.filter((f) => !html.includes(f)).map((f) => link('stylesheet', f)),
        ],
      };
    },
  },
};

/**
 * The app's chunk holds everything mount.tsx imports statically, save what the page's first script has
 * already. Left to itself the bundler cuts the modules the app shares with views loaded on demand
 * (zustand, small helpers) into chunks of a few hundred bytes each, and every one is another request
 * before the window can be used.
 */
const appChunkGroup: CodeSplittingGroup = (() => {
  let inApp: Set<string> | null = null;
  const closure = (from: string, ctx: ChunkingContext, out = new Set<string>()): Set<string> => {
    if (out.has(from)) return out;
    out.add(from);
    for (const id of ctx.getModuleInfo(from)?.importedIds ?? []) closure(id, ctx, out);
    return out;
  };
  return {
    debugName: 'app',
    name: (id, ctx) => {
      if (!inApp) {
        const first = closure(fileURLToPath(new URL('./src-renderer/main.tsx', import.meta.url)), ctx);
        const app = closure(fileURLToPath(new URL('./src-renderer/mount.tsx', import.meta.url)), ctx);
        inApp = new Set([...app].filter((m) => !first.has(m)));
      }
      return inApp.has(id) ? 'mount' : null;
    },
    // Only those modules: what they import from the first script stays in its chunk.
    includeDependenciesRecursively: false,
  };
})();

// One build for the desktop app and for plain Node: the main bundle also carries browser mode's
// server and the `oi` CLI, which import no electron and run under `node`.
export default defineConfig({
  main: {
    resolve: { alias },
    // The ACP SDK's schemas built on first use rather than when `oi acp` loads (lazy-acp-schemas.config.ts).
    plugins: [lazyAcpSchemas],
    build: {
      outDir: 'out/main',
      // Pure-JS dependencies go into the bundle: resolving and reading their hundreds of files at
      // every start cost more than the code itself (bench/startup.bench.ts). Native modules (node-pty,
      // the keyring), Electron, ws (optional native helpers) and the Jupyter client (loaded only for a
      // remote kernel) stay external.
      externalizeDeps: {
        exclude: [
          'zod',
          'openai',
          '@anthropic-ai/sdk',
          '@agentclientprotocol/sdk',
          'atomically',
          'partial-json',
          'js-tiktoken',
          'ignore',
          'ws',
        ],
      },
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
    plugins: [react(), relaxCspForDevServer, preloadAppChunk],
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified; React 19 ships its production build unminified
      // too, and parsing that was most of the time before the window could be used.
      minify: true,
      rollupOptions: {
        input: fileURLToPath(new URL('./src-renderer/index.html', import.meta.url)),
        output: { codeSplitting: { groups: [appChunkGroup] } },
      },
    },
  },
});
