// Start-up benchmark: how long the Node side takes to be useful, side by side with `node -e 0` in the
// same run (the anchor: what Node itself costs on this machine, now).
// Run: npm run bench -- startup   (needs `npm run build`; writes bench/results/startup.json)
//
// Measured, each as the median of several launches of the built app (out/main):
// - `oi --version` and `oi --help`: launch to exit (target: at most 2x node -e 0);
// - `oi -m`: launch to the first model request reaching a scripted model server (target: 0.4 s);
// - browser mode (`node out/main/serve.js`): launch to its URL on stdout (target: 0.4 s), and launch to
//   the answer to a first request over its WebSocket (the app is built after the URL is printed, so
//   this is when a page opened at once is served);
// - the Electron main entry (out/main/index.js): launch to its whole module graph imported, with a
//   stand-in for the `electron` module (Node cannot load Electron's own), so app start-up is not run.
// The launches take turns (node, --version, --help, ..., then again), so a change in the machine's load
// during the run reaches every figure alike; each ratio is the median of the per-round ratios to that
// round's `node -e 0`.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';
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

/** Milliseconds from launching browser mode until its first request (app.info) is answered over the WebSocket. */
function firstAnswer(data: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'out', 'main', 'serve.js'), '--data-dir', data], {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let asked = false;
    let settled = false;
    const done = (result: number | Error) => {
      if (settled) return;
      settled = true;
      child.kill('SIGTERM');
      if (result instanceof Error) reject(result);
      else resolvePromise(result);
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /http:\/\/(127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(out);
      if (!url || asked) return;
      asked = true;
      const ws = new WebSocket(`ws://${url[1]}/ws?token=${url[2]}`);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'request', id: 1, name: 'app.info', input: {} })));
      ws.on('message', (raw: Buffer) => {
        const frame = JSON.parse(raw.toString()) as { type: string; id?: number; ok?: boolean };
        if (frame.type !== 'response' || frame.id !== 1) return;
        const ms = performance.now() - start;
        ws.close();
        done(frame.ok ? ms : new Error(`app.info failed: ${raw.toString()}`));
      });
      ws.on('error', (err) => done(err));
    });
    child.stderr.resume();
    child.on('exit', (code) => done(new Error(`browser mode exited with ${code} before answering:\n${out}`)));
  });
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
    // The Electron main entry's module graph, with `electron` replaced by a stand-in that never starts the app.
    const stub = join(data, 'electron-stub.mjs');
    writeFileSync(stub, electronStub());
    const hooks = join(data, 'electron-hooks.mjs');
    writeFileSync(
      hooks,
      `export async function resolve(s, c, next) { return s === 'electron' ? { url: ${JSON.stringify(pathToFileURL(stub).href)}, shortCircuit: true } : next(s, c); }\n`,
    );
    const loader = join(data, 'load-main.mjs');
    writeFileSync(
      loader,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\nawait import(${JSON.stringify(pathToFileURL(join(ROOT, 'out', 'main', 'index.js')).href)});\nprocess.stdout.write('imported\\n');\n`,
    );

    const scenarios: Array<{ key: string; label: string; run: () => Promise<number> }> = [
      { key: 'node', label: 'node -e 0 (anchor)', run: () => launch(['-e', '0'], env) },
      { key: 'version', label: 'oi --version', run: () => launch([OI, '--version'], env) },
      { key: 'help', label: 'oi --help', run: () => launch([OI, '--help'], env) },
      // oi -m: from launch to the model request arriving at the scripted server.
      {
        key: 'firstRequest',
        label: 'oi -m: first model request',
        run: async () => {
          llm.enqueue({ kind: 'text', text: 'ok' });
          const before = llm.requests.length;
          const start = performance.now();
          let arrived = 0;
          await new Promise<void>((done, fail) => {
            const child = spawn(
              process.execPath,
              [OI, '--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '-m', 'hi'],
              { env, cwd: here, stdio: 'ignore' },
            );
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
        },
      },
      {
        key: 'serveUrl',
        label: 'browser mode: URL printed',
        run: () =>
          launch([join(ROOT, 'out', 'main', 'serve.js'), '--data-dir', data], env, (out) =>
            /http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(out),
          ),
      },
      { key: 'serveFirstAnswer', label: 'browser mode: first request answered', run: () => firstAnswer(data, env) },
      {
        key: 'electronMainImport',
        label: 'Electron main entry: modules imported',
        run: () => launch([loader], env, (out) => out.includes('imported')),
      },
    ];

    // One warm-up round (the file system cache, and the environment snapshot `oi -m` leaves), then turns.
    for (const s of scenarios) await s.run();
    const samples = new Map(scenarios.map((s) => [s.key, [] as number[]]));
    const ratios = new Map(scenarios.map((s) => [s.key, [] as number[]]));
    for (let i = 0; i < RUNS; i++) {
      const round = new Map<string, number>();
      for (const s of scenarios) round.set(s.key, await s.run());
      const anchor = round.get('node') ?? NaN;
      for (const [key, ms] of round) {
        samples.get(key)?.push(ms);
        ratios.get(key)?.push(ms / anchor);
      }
    }
    const ms: Record<string, number> = {};
    const ratiosToNode: Record<string, number> = {};
    for (const s of scenarios) {
      ms[s.key] = Math.round(median(samples.get(s.key) ?? []));
      ratiosToNode[s.key] = Number(median(ratios.get(s.key) ?? []).toFixed(2));
      console.log(`${s.label.padEnd(44)} ${String(ms[s.key]).padStart(6)} ms  ${ratiosToNode[s.key]?.toFixed(2).padStart(5)}x`);
    }
    const { node, ...figures } = ms;
    const { node: _anchor, ...figureRatios } = ratiosToNode;
    const results = {
      date: new Date().toISOString(),
      machine: { node: process.version, runs: RUNS, cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))) },
      anchor: { 'node -e 0': node },
      ms: figures,
      ratiosToNode: figureRatios,
      targets: { versionAndHelp: '<= 2x node -e 0', firstRequest: '<= 400 ms', serveUrl: '<= 400 ms' },
    };
    console.log(
      `\nratios to node -e 0 (median of per-round ratios): ${Object.entries(figureRatios)
        .map(([k, v]) => `${k} ${v}x`)
        .join(', ')}; load average ${results.machine.loadAverage.join(' ')}`,
    );
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
