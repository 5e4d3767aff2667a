import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { defaultSettings, type ExecSettings } from '@contract';
import { createExecService, type ExecService, type ExecServiceOptions, type RunRequest, type RunResult } from '../../src-main/core/exec';

// The one way tests drive a real execution engine: real sessions in a throwaway workspace, every
// run with the app's default settings unless told otherwise, and everything started gone after
// close(). Tests that need another engine around it (auto-install, a remote-kernel router) say so
// through the options rather than copying this setup.

export const RESOURCES_DIR = resolve(import.meta.dirname, '../../resources');

export type RunExtra = Omit<Partial<RunRequest>, 'settings'> & { settings?: Partial<ExecSettings> };
export type HarnessRun = RunResult & { terminal: string };

export interface HarnessOptions extends Partial<ExecServiceOptions> {
  /** Run here instead of in a fresh temp folder (the caller owns it: close() leaves it). */
  workspace?: string;
  /** Settings every run starts from, over the app's defaults and a 20 s timeout. */
  settings?: Partial<ExecSettings>;
  /** Defaults for every run's request (conversationId, sandbox…). */
  request?: Omit<RunExtra, 'settings'>;
  /** Wraps the engine, e.g. with withAutoInstall; `service` is then the wrapper. */
  wrap?: (engine: ExecService) => ExecService;
}

export interface Harness {
  /** What runs go through (the wrapper when `wrap` was given). */
  service: ExecService;
  workspace: string;
  tmpRoot: string;
  /** A run as the agent makes it, with the terminal text it streamed. */
  run(language: string, code: string, extra?: RunExtra): Promise<HarnessRun>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { workspace: given, settings: baseSettings, request: baseRequest = {}, wrap, tmpRoot: givenTmp, ...engineOptions } = options;
  const workspace = given ?? (await mkdtemp(join(tmpdir(), 'oi-exec-ws-')));
  const tmpRoot = givenTmp ?? (await mkdtemp(join(tmpdir(), 'oi-exec-tmp-')));
  // The app's own grace period (exec-service.ts): with a shorter one, an interrupted flood of output
  // could not drain and report its end on a loaded machine before the session was killed.
  const engine = createExecService({ resourcesDir: RESOURCES_DIR, graceMs: 2000, ...engineOptions, tmpRoot });
  const service = wrap ? wrap(engine) : engine;
  return {
    service,
    workspace,
    tmpRoot,
    async run(language, code, extra = {}) {
      let terminal = '';
      const { settings, onTerminal, ...rest } = extra;
      const result = await service.run({
        conversationId: 'conv-1',
        workspace,
        language,
        code,
        ...baseRequest,
        ...rest,
        settings: {
          ...defaultSettings.exec,
          timeoutMs: 20_000,
          ...baseSettings,
          ...settings,
          env: { ...baseSettings?.env, ...settings?.env },
        },
        onTerminal: (text) => {
          terminal += text;
          onTerminal?.(text);
        },
      });
      return { ...result, terminal };
    },
    async close() {
      await service.dispose();
      if (!given) await rm(workspace, { recursive: true, force: true });
      if (!givenTmp) await rm(tmpRoot, { recursive: true, force: true });
    },
  };
}

/** The run's stdout text as the UI keeps it. */
export function stdoutOf(result: RunResult): string {
  return result.outputs
    .filter((o) => o.output_type === 'stream' && o.name === 'stdout')
    .map((o) => (o.output_type === 'stream' ? o.text : ''))
    .join('');
}

/** All the run's stream text (stdout and stderr) in the order it was kept. */
export function streamTextOf(result: RunResult): string {
  return result.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
}

/** The run's stderr text as the UI keeps it (docs/exec.md#stderr). */
export function stderrOf(result: RunResult): string {
  return result.outputs
    .filter((o) => o.output_type === 'stream' && o.name === 'stderr')
    .map((o) => (o.output_type === 'stream' ? o.text : ''))
    .join('');
}

/** A 1×1 PNG as base64: the bytes of an image file a test writes, and what a display_data output must carry. */
export const DOT_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The data of each display_data output of the run, in order. */
export function displayedData(result: RunResult): Array<Record<string, unknown>> {
  return result.outputs.flatMap((o) => (o.output_type === 'display_data' ? [o.data] : []));
}

/**
 * The harness of a describe block (or a whole file): started in beforeAll, closed in afterAll. Use it
 * inside tests and later hooks — `options` may be a function, called when the harness starts, for
 * options that an earlier beforeAll makes.
 */
export function useHarness(options: HarnessOptions | (() => HarnessOptions) = {}): Harness {
  let started: Harness | null = null;
  beforeAll(async () => {
    started = await startHarness(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await started?.close();
    started = null;
  });
  const current = (): Harness => {
    if (!started) throw new Error('useHarness: the harness runs only between its beforeAll and afterAll');
    return started;
  };
  return {
    get service() {
      return current().service;
    },
    get workspace() {
      return current().workspace;
    },
    get tmpRoot() {
      return current().tmpRoot;
    },
    run: (language, code, extra) => current().run(language, code, extra),
    close: () => current().close(),
  };
}

/** A run's options that interrupt it once its terminal has shown `text`, as the person's Stop would. */
export function interruptOnceShown(text: string): Pick<RunExtra, 'signal' | 'onTerminal'> {
  const controller = new AbortController();
  let seen = '';
  return {
    signal: controller.signal,
    onTerminal: (chunk) => {
      seen += chunk;
      if (seen.includes(text)) controller.abort();
    },
  };
}
