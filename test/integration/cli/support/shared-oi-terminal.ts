import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../../fixtures/llm-server';
import { cliEnv, OiTerminal, tempDir, type OiTerminalOptions } from '../../../support/cli-process';

// One `oi` in a pseudo-terminal for the tests of a file that need only a conversation of their own,
// not a process of their own: each starting `oi` cost about 1.4 CPU-seconds before its first turn
// (issue 36). Each test gets a new conversation (`%reset`, what a person types for one), the model
// server's requests and the terminal's output from its own start only, and the same data folder.
// It starts before the tests (one started inside a test ends with it: test-children.ts). After a
// failed test, one that left replies queued, or one that ended oi, it is stopped and the tests after
// start a process each, so that nothing a test left half-done reaches the next one.

export interface SharedOiTerminalRun {
  oi: OiTerminal;
  llm: ScriptedLlm;
  /** The data folder (conversations/, settings), shared by the file's tests; code runs in <dir>/ws. */
  dir: string;
  /** What oi printed since this test's conversation started (escape sequences removed). */
  output(): string;
}

interface Running {
  oi: OiTerminal;
  llm: ScriptedLlm;
  folder: { dir: string; remove(): void };
  ended: boolean;
  /** Started inside a test (after a failure): it ends with that test. */
  ownTest: boolean;
  /** A test had it: the next one needs a new conversation (the first has the one oi starts with). */
  used: boolean;
}

/**
 * For a test file: `fresh()` gives the test the file's `oi` (started on first use with these
 * environment additions, arguments after the model flags, and terminal options) in a new conversation.
 */
export function useSharedOiTerminal(
  extraEnv: Record<string, string> = {},
  extraArgs: (dir: string) => string[] = (dir) => ['--workspace', path.join(dir, 'ws')],
  options: (dir: string) => OiTerminalOptions = () => ({}),
): { fresh(): Promise<SharedOiTerminalRun> } {
  let running: Running | null = null;

  const stop = async () => {
    const was = running;
    running = null;
    if (!was) return;
    was.oi.kill();
    await was.oi.exited;
    await was.llm.close();
    was.folder.remove();
  };
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' || (running?.llm.pending() ?? 0) > 0 || running?.ended || running?.ownTest) await stop();
  });
  afterAll(stop);

  const start = async (ownTest: boolean): Promise<Running> => {
    const llm = await startScriptedLlm();
    const folder = tempDir('oi-cli-');
    const flags = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl];
    const oi = new OiTerminal([...flags, ...extraArgs(folder.dir)], cliEnv(folder.dir, extraEnv), options(folder.dir));
    const made: Running = { oi, llm, folder, ended: false, ownTest, used: false };
    void oi.exited.then(() => {
      made.ended = true;
    });
    return made;
  };
  beforeAll(async () => {
    running = await start(false);
  });

  return {
    async fresh() {
      let now = running;
      if (now?.used) {
        // A new conversation, as a person starts one. Refused while the last turn settles (its answer
        // printed, its end not yet handled): asked again, each time after oi's answer.
        for (let tries = 1; ; tries++) {
          now.oi.line('%reset');
          const said = await now.oi.expect(/Started a new conversation\.|the agent is working/);
          if (said.startsWith('Started')) break;
          if (tries === 100) throw new Error('oi stayed busy after the last test: %reset was refused 100 times');
        }
        now.llm.requests.splice(0);
      } else {
        now = running ??= await start(true);
      }
      now.used = true;
      const from = now.oi.output.length;
      const { oi } = now;
      return { oi, llm: now.llm, dir: now.folder.dir, output: () => oi.output.slice(from) };
    },
  };
}
