import path from 'node:path';
import { afterEach } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../../fixtures/llm-server';
import { cliEnv, OiTerminal, tempDir } from './cli-process';

export interface OiTerminalRun {
  oi: OiTerminal;
  llm: ScriptedLlm;
  /** The run's data folder (conversations/, settings); the code runs in <dir>/ws. */
  dir: string;
}

/**
 * For a test file driving `oi` in a pseudo-terminal: start() launches it against a fresh scripted
 * model server (OpenAI protocol) and data folder; everything is stopped and removed after each test.
 */
export function useOiTerminal(): { start(extraEnv?: Record<string, string>, extraArgs?: string[]): Promise<OiTerminalRun> } {
  let run: (OiTerminalRun & { remove(): void }) | null = null;
  afterEach(async () => {
    if (!run) return;
    run.oi.kill();
    await run.oi.exited;
    await run.llm.close();
    run.remove();
    run = null;
  });
  return {
    async start(extraEnv = {}, extraArgs = []) {
      const llm = await startScriptedLlm();
      const data = tempDir('oi-pty-');
      const args = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--workspace', path.join(data.dir, 'ws'), ...extraArgs];
      const oi = new OiTerminal(args, cliEnv(data.dir, extraEnv));
      run = { oi, llm, dir: data.dir, remove: data.remove };
      return run;
    },
  };
}

type Message = { role: string; content: unknown };

export const shellCall = (id: string, code: string) => ({ kind: 'tool' as const, calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }] });

/** The chat requests the model server got (model listings left out). */
export const chatRequests = (l: ScriptedLlm) => l.requests.filter((r) => r.path.endsWith('/chat/completions'));

/** The user messages of a chat request (the last one by default). */
export const userMessages = (l: ScriptedLlm, at = -1): unknown[] =>
  ((chatRequests(l).at(at)?.body as { messages: Message[] } | undefined)?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);

/** What the model was last told a run produced. */
export const lastToolResult = (l: ScriptedLlm): string =>
  String(((chatRequests(l).at(-1)?.body as { messages: Message[] } | undefined)?.messages ?? []).filter((m) => m.role === 'tool').at(-1)?.content ?? '');
