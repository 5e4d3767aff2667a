import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultSettings, type ExecSettings } from '@contract';
import { createExecService, type ExecServiceOptions } from '../../../src-main/core/exec/engine/exec-service';
import type { ExecService, RunRequest, RunResult } from '../../../src-main/core/exec/engine/types';

// A real engine over a throwaway workspace; everything it starts is gone after close().

export const RESOURCES_DIR = resolve(import.meta.dirname, '../../../resources');

export interface Harness {
  service: ExecService;
  workspace: string;
  tmpRoot: string;
  run(
    language: string,
    code: string,
    extra?: Omit<Partial<RunRequest>, 'settings'> & { settings?: Partial<ExecSettings> },
  ): Promise<RunResult & { terminal: string }>;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<ExecServiceOptions> = {}): Promise<Harness> {
  const workspace = await mkdtemp(join(tmpdir(), 'oi-exec-ws-'));
  const tmpRoot = await mkdtemp(join(tmpdir(), 'oi-exec-tmp-'));
  const service = createExecService({ resourcesDir: RESOURCES_DIR, tmpRoot, graceMs: 1000, ...options });
  return {
    service,
    workspace,
    tmpRoot,
    async run(language, code, extra = {}) {
      let terminal = '';
      const { settings, ...rest } = extra;
      const result = await service.run({
        conversationId: 'conv-1',
        workspace,
        language,
        code,
        settings: { ...defaultSettings.exec, timeoutMs: 20_000, ...settings },
        onTerminal: (text) => {
          terminal += text;
        },
        ...rest,
      });
      return { ...result, terminal };
    },
    async close() {
      await service.dispose();
      await rm(workspace, { recursive: true, force: true });
      await rm(tmpRoot, { recursive: true, force: true });
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
