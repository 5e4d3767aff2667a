import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestNames } from '@contract';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';

// Random and malformed input to every request of the real app: each gets an answer (never a throw),
// refusals say what was wrong, and nothing reaches the model or runs code.

const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.constantFrom('../../etc/passwd', '/etc/shadow', 'C:\\Windows\\win.ini', 'CON', '\u0000', 'a'.repeat(5000)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('conversationId', 'cellId', 'text', 'code', 'title', 'query', 'autoRun', 'exec', 'model', 'baseUrl', '__proto__', 'constructor'), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('the handler table under random input', () => {
  let aut: AppUnderTest;
  let dispatch: Dispatcher;
  beforeAll(async () => {
    aut = await startAppUnderTest();
    dispatch = createDispatcher(aut.app.handlers);
  });
  afterAll(async () => aut?.close());

  it('answers every request with a result or a clear error, and never runs anything', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...requestNames), fc.string()), jsonish, async (name, input) => {
        const reply = await dispatch(name, input, { transport: 'websocket' });
        if (!reply.ok) {
          expect(reply.error.message.length).toBeGreaterThan(5);
          expect(['unknown-request', 'invalid-input', 'handler-error']).toContain(reply.error.code);
        }
      }),
      { numRuns: 400, seed: 20261129 },
    );
    expect(aut.llm.requests).toHaveLength(0);
  });

  it('refuses names that only look like requests', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'chat.send ', 'CHAT.SEND']) {
      const reply = await dispatch(name, {}, { transport: 'websocket' });
      expect(reply.ok).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('unknown-request');
    }
  });
});
