import { startScriptedLlm, type ScriptedLlm, type ScriptedLlmOptions } from '../fixtures/llm-server';
import { closedAfterEach } from './closed-after-each';

/**
 * The scripted model server (test/fixtures/llm-server.ts) for the tests of one file: the function
 * returned starts one, and every server a test started is closed after it.
 */
export function useScriptedLlms(): (opts?: ScriptedLlmOptions) => Promise<ScriptedLlm> {
  return closedAfterEach(startScriptedLlm);
}
