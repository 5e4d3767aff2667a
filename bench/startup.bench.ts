// Start-up benchmark: how long the Node side takes to be useful, side by side with `node -e 0` in the
// same run (the anchor: what Node itself costs on this machine, now).
// Run: npm run bench -- startup   (needs `npm run build`; writes bench/results/startup.json)
//
// Measured, each as the median of several launches of the built app (out/main):
// - `oi --version` and `oi --help`: launch to exit (target: at most 2x node -e 0);
// - `oi -m`: launch to the first model request reaching a scripted model server (target: 0.4 s);
// - browser mode (`node out/main/serve.js`): launch to its URL on stdout (target: 0.4 s);
// - the Electron main entry (out/main/index.js): launch to its whole module graph imported, with a
//   stand-in for the `electron` module (Node cannot load Electron's own), so app start-up is not run.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startScriptedLlm } from '../test/fixtures/llm-server';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OI = join(ROOT, 'bin', 'oi.mjs');
const RUNS = Number(process.env.STARTUP_RUNS ?? 9);

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Milliseconds from spawn until `done` says so (given each chunk of stdout), or until exit when it never does. */
function launch(args: string[], env: NodeJS.ProcessEnv, done?: (stdout: string) => boolean, cwd = ROOT): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let settled = false;
    const finish = (ms: number) => {
      if (settled) return;
      settled = true;
      resolvePromise(ms);
      if (child.exitCode === null) child.kill('SIGTERM');
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (done?.(out)) finish(performance.now() - start);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      if (settled) return;
      if (done || code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}:\n${err || out}`));
      else finish(performance.now() - start);
    });
  });
}

async function sample(label: string, run: () => Promise<number>): Promise<number> {
  await run(); // one warm-up: the file system cache, not the process, is what it warms
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await run());
  const m = median(samples);
  console.log(`${label.padEnd(44)} ${m.toFixed(0).padStart(6)} ms`);
  return m;
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) throw new Error('run `npm run build` first: this measures the built app');
  const data = mkdtempSync(join(tmpdir(), 'oi-startup-bench-'));
  const here = join(data, 'here');
  mkdirSync(here);
  const llm = await startScriptedLlm();
  const env: NodeJS.ProcessEnv = { ...process.env, OI_DATA_DIR: data, OI_NO_KEYCHAIN: '1', OPENAI_API_KEY: 'sk-bench', NO_COLOR: '1' };
  delete env.npm_package_version;
  try {
    const node = await sample('node -e 0 (anchor)', () => launch(['-e', '0'], env));
    const version = await sample('oi --version', () => launch([OI, '--version'], env));
    const help = await sample('oi --help', () => launch([OI, '--help'], env));

    // oi -m: from launch to the model request arriving at the scripted server.
    const firstRequest = await sample('oi -m: first model request', async () => {
      llm.enqueue({ kind: 'text', text: 'ok' });
      const before = llm.requests.length;
      const start = performance.now();
      let arrived = 0;
      await new Promise<void>((done, fail) => {
        const child = spawn(process.execPath, [OI, '--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '-m', 'hi'], { env, cwd: here, stdio: 'ignore' });
        const poll = setInterval(() => {
          if (llm.requests.length > before && !arrived) arrived = performance.now() - start;
        }, 1);
        child.on('exit', (code) => {
          clearInterval(poll);
          if (code !== 0) fail(new Error(`oi -m exited with ${code}`));
          else done();
        });
      });
      return arrived;
    });

    // Browser mode: until it prints its URL.
    const serve = await sample('browser mode: URL printed', () => launch([join(ROOT, 'out', 'main', 'serve.js'), '--data-dir', data], env, (out) => /http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(out)));

    // The Electron main entry's module graph, with `electron` replaced by a stand-in that never starts the app.
    const stub = join(data, 'electron-stub.mjs');
    writeFileSync(stub, electronStub());
    const hooks = join(data, 'electron-hooks.mjs');
    writeFileSync(hooks, `export async function resolve(s, c, next) { return s === 'electron' ? { url: ${JSON.stringify(pathToFileURL(stub).href)}, shortCircuit: true } : next(s, c); }\n`);
    const loader = join(data, 'load-main.mjs');
    writeFileSync(loader, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\nawait import(${JSON.stringify(pathToFileURL(join(ROOT, 'out', 'main', 'index.js')).href)});\nprocess.stdout.write('imported\\n');\n`);
    const electronMain = await sample('Electron main entry: modules imported', () => launch([loader], env, (out) => out.includes('imported')));

    const ratio = (ms: number) => Number((ms / node).toFixed(2));
    const results = {
      machine: { node: process.version, runs: RUNS },
      anchor: { 'node -e 0': Math.round(node) },
      ms: { version: Math.round(version), help: Math.round(help), firstRequest: Math.round(firstRequest), serveUrl: Math.round(serve), electronMainImport: Math.round(electronMain) },
      ratiosToNode: { version: ratio(version), help: ratio(help), firstRequest: ratio(firstRequest), serveUrl: ratio(serve), electronMainImport: ratio(electronMain) },
      targets: { versionAndHelp: '<= 2x node -e 0', firstRequest: '<= 400 ms', serveUrl: '<= 400 ms' },
    };
    console.log(`\nratios to node -e 0: --version ${results.ratiosToNode.version}x, --help ${results.ratiosToNode.help}x, first request ${results.ratiosToNode.firstRequest}x, browser URL ${results.ratiosToNode.serveUrl}x, Electron main import ${results.ratiosToNode.electronMainImport}x`);
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'startup.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await llm.close();
    rmSync(data, { recursive: true, force: true });
  }
}

/** Enough of Electron's API for main's modules to load: app.whenReady never resolves, so nothing starts. */
function electronStub(): string {
  return `const never = new Promise(() => {});
const inert = new Proxy(function () {}, { get: (t, p) => (p === 'then' ? undefined : inert), apply: () => inert, construct: () => inert });
export const app = new Proxy({ whenReady: () => never, on: () => app, once: () => app, getPath: () => '/tmp', isPackaged: false, commandLine: { appendSwitch() {} } }, { get: (t, p) => (p in t ? t[p] : inert) });
export default new Proxy({ app }, { get: (t, p) => (p in t ? t[p] : inert) });
export const BrowserWindow = inert, ipcMain = inert, protocol = inert, session = inert, shell = inert, dialog = inert, net = inert, Menu = inert, nativeTheme = inert, webContents = inert, contextBridge = inert, ipcRenderer = inert, safeStorage = inert, screen = inert, clipboard = inert, nativeImage = inert, powerMonitor = inert, crashReporter = inert, utilityProcess = inert, MessageChannelMain = inert, systemPreferences = inert, globalShortcut = inert, Tray = inert, Notification = inert, autoUpdater = inert;
`;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
