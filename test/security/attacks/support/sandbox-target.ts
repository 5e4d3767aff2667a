import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultSettings, type ExecSettings, type SandboxSettings } from '@contract';
import { sandboxVisibleScratch } from '../../../support/sandbox-visible-scratch';
import { createExecService, type ExecService, type RunResult, AutoInstall } from '../../../../src-main/core/exec';

// The target of the sandbox attacks: the real engine (with automatic installs) over a workspace
// inside a home folder of the test's own, as a user's project inside their home would be. The home
// is outside /tmp and hidden from the sandbox, so a file the attack writes there can only have been
// written by something the app ran outside the sandbox.

export const RESOURCES_DIR = resolve(import.meta.dirname, '../../../../resources');
export const SANDBOX: SandboxSettings = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };

export interface SandboxTarget {
  home: string;
  workspace: string;
  tmpRoot: string;
  service: ExecService;
  questions: AutoInstall.InstallQuestion[];
  /** A path outside everything the sandbox can write, where a planted program leaves its mark. */
  marker(name: string): string;
  /** What was written at the marker (null: nothing ran outside the sandbox). */
  marked(name: string): Promise<string | null>;
  /** A new empty workspace inside the home, for one attack. */
  freshWorkspace(): Promise<string>;
  run(
    conversationId: string,
    language: string,
    code: string,
    options?: { workspace?: string; sandbox?: SandboxSettings; settings?: Partial<ExecSettings> },
  ): Promise<RunResult>;
  close(): Promise<void>;
}

export async function startSandboxTarget(): Promise<SandboxTarget> {
  // Not under /tmp or the real home, which the sandbox hides whatever the test asks (a clone under /tmp
  // would otherwise put the "home" and its extra paths out of the sandbox's sight).
  const base = sandboxVisibleScratch() ?? resolve(import.meta.dirname, '../../../../test-results');
  await mkdir(base, { recursive: true });
  const home = await mkdtemp(join(base, 'attack-home-'));
  const workspace = join(home, 'projects', 'demo');
  await mkdir(workspace, { recursive: true });
  await mkdir(join(home, 'marks'));
  const tmpRoot = await mkdtemp(join(tmpdir(), 'oi-attack-'));
  const engine = createExecService({ resourcesDir: RESOURCES_DIR, tmpRoot, graceMs: 1000 });
  const questions: AutoInstall.InstallQuestion[] = [];
  const service = AutoInstall.withAutoInstall(engine, {
    approve: async (question) => {
      questions.push(question);
      return true;
    },
    tmpRoot,
  });
  const marker = (name: string): string => join(home, 'marks', name);
  return {
    home,
    workspace,
    tmpRoot,
    service,
    questions,
    marker,
    marked: async (name) => (existsSync(marker(name)) ? readFile(marker(name), 'utf8') : null),
    freshWorkspace: () => mkdtemp(join(home, 'projects', 'ws-')),
    run: (conversationId, language, code, options = {}) =>
      service.run({
        conversationId,
        workspace: options.workspace ?? workspace,
        language,
        code,
        ...(options.sandbox ? { sandbox: options.sandbox } : {}),
        settings: { ...defaultSettings.exec, timeoutMs: 60_000, ...options.settings, env: { HOME: home, ...options.settings?.env } },
      }),
    async close() {
      await service.dispose();
      await rm(home, { recursive: true, force: true });
      await rm(tmpRoot, { recursive: true, force: true });
    },
  };
}

/**
 * A shell script that records being run — at `mark` (only possible outside the sandbox) and at
 * `log` (also possible inside it) — then runs `real`, so everything keeps working.
 */
export function plantedProgram(mark: string, log: string, real: string): string {
  return [
    '#!/bin/sh',
    `echo "ran outside: $0 $*" >> ${JSON.stringify(mark)} 2>/dev/null`,
    `echo "ran: $0" >> ${JSON.stringify(log)} 2>/dev/null`,
    `exec ${real} "$@"`,
    '',
  ].join('\n');
}

/** Python code that writes `text` at `path` (relative to the workspace) as an executable file. */
export function plantWith(path: string, text: string): string {
  return [
    'import os',
    `os.makedirs(os.path.dirname(${JSON.stringify(path)}) or ".", exist_ok=True)`,
    `open(${JSON.stringify(path)}, "w").write(${JSON.stringify(text)})`,
    `os.chmod(${JSON.stringify(path)}, 0o755)`,
  ].join('\n');
}

export function stdoutOf(result: RunResult): string {
  return result.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
}
