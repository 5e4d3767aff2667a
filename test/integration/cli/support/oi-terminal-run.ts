import path from 'node:path';
import type { ScriptedLlm } from '../../../fixtures/llm-server';
import { cliEnv, type OiTerminal, type OiTerminalOptions } from '../../../support/cli-process';
import { useCliRun } from '../../../support/cli-run';

export interface OiTerminalRun {
  oi: OiTerminal;
  llm: ScriptedLlm;
  /** The run's data folder (conversations/, settings); the code runs in <dir>/ws. */
  dir: string;
}

export interface CliFixtures {
  /** A fresh scripted model server and data folder, with the flags that point oi at the server (OpenAI protocol). */
  setUp(): Promise<{ llm: ScriptedLlm; dir: string; flags: string[] }>;
  /** `oi` in a pseudo-terminal; killed after the test (a second one replaces the first). */
  terminal(args: string[], env: Record<string, string>, options?: OiTerminalOptions): OiTerminal;
}

/** For a test file running `oi`: its server, data folder and terminal are stopped and removed after each test. */
export function useCliFixtures(): CliFixtures {
  const cli = useCliRun();
  return {
    async setUp() {
      const { llm, dir } = await cli.start('oi-cli-');
      return { llm, dir, flags: ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl] };
    },
    terminal: cli.terminal,
  };
}

/**
 * For a test file driving `oi` in a pseudo-terminal: start() launches it against a fresh scripted
 * model server (OpenAI protocol) and data folder, code running in <dir>/ws.
 */
export function useOiTerminal(): {
  start(extraEnv?: Record<string, string>, extraArgs?: string[], options?: OiTerminalOptions): Promise<OiTerminalRun>;
} {
  const fixtures = useCliFixtures();
  return {
    async start(extraEnv = {}, extraArgs = [], options = {}) {
      const { llm, dir, flags } = await fixtures.setUp();
      const oi = fixtures.terminal([...flags, '--workspace', path.join(dir, 'ws'), ...extraArgs], cliEnv(dir, extraEnv), options);
      return { oi, llm, dir };
    },
  };
}

type Message = { role: string; content: unknown };

export const shellCall = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});

/** The chat requests the model server got (model listings left out). */
export const chatRequests = (l: ScriptedLlm) => l.requests.filter((r) => r.path.endsWith('/chat/completions'));

/** The user messages of a chat request (the last one by default). */
export const userMessages = (l: ScriptedLlm, at = -1): unknown[] =>
  ((chatRequests(l).at(at)?.body as { messages: Message[] } | undefined)?.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => m.content);

/** What the model was last told a run produced. */
export const lastToolResult = (l: ScriptedLlm): string => {
  const content =
    ((chatRequests(l).at(-1)?.body as { messages: Message[] } | undefined)?.messages ?? []).filter((m) => m.role === 'tool').at(-1)
      ?.content ?? '';
  return typeof content === 'string' ? content : JSON.stringify(content);
};
