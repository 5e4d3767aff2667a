import { afterEach } from 'vitest';
import { startScriptedLlm, type ScriptedLlm, type ScriptedLlmOptions } from '../fixtures/llm-server';

/**
 * The scripted model server (test/fixtures/llm-server.ts) for the tests of one file: the function
 * returned starts one, and every server a test started is closed after it.
 */
export function useScriptedLlms(): (opts?: ScriptedLlmOptions) => Promise<ScriptedLlm> {
  const running: ScriptedLlm[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((llm) => llm.close()));
  });
  return async (opts) => {
    const llm = await startScriptedLlm(opts);
    running.push(llm);
    return llm;
  };
}
