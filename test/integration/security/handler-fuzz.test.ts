import { existsSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestNames, requests, type RequestName } from '@contract';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';

// Random and malformed input to every request of the real app: each gets an answer (never a throw),
// refusals say what was wrong, and malformed input naming a real conversation and a real cell waiting
// for approval runs nothing and asks the model nothing.

const WS = { transport: 'websocket' } as const;

describe('the handler table under random input', () => {
  let aut: AppUnderTest;
  let dispatch: Dispatcher;
  /** A conversation whose turn waits for the approval of a cell that would write `marker`. */
  let conversationId: string;
  let cellId: string;
  let workspace: string;
  const marker = 'ran-marker.txt';

  /** Every event the app sent, by name: a run or a turn starting would show here. */
  const events: string[] = [];

  beforeAll(async () => {
    aut = await startAppUnderTest();
    dispatch = createDispatcher(aut.app.handlers);
    const created = await dispatch('conversation.create', {}, WS);
    if (!created.ok) throw new Error(created.error.message);
    const conversation = created.result as { id: string; workspace: string };
    conversationId = conversation.id;
    workspace = conversation.workspace;
    const waiting = new Promise<string>((resolve) => {
      aut.app.events.subscribe((event) => {
        events.push(event.name);
        if (event.name === 'cell.awaiting-approval') resolve(event.payload.cell.id);
      });
    });
    aut.llm.enqueue({
      kind: 'tool',
      calls: [{ id: 'c1', name: 'execute', arguments: { language: 'shell', code: `echo ran > ${marker}` } }],
    });
    const sent = await dispatch('chat.send', { conversationId, text: 'go' }, WS);
    if (!sent.ok) throw new Error(sent.error.message);
    cellId = await waiting;
  });
  afterAll(async () => aut?.close());

  it('runs nothing and asks the model nothing for malformed input naming a real conversation and cell', async () => {
    const modelRequests = aut.llm.requests.length;
    events.length = 0;
    // Inputs each of these requests accepts, and which would start a turn or run the waiting cell.
    const valid: Partial<Record<RequestName, Record<string, unknown>>> = {
      'chat.send': { conversationId, text: 'run it' },
      'chat.edit-last': { conversationId, text: 'run it' },
      'chat.regenerate': { conversationId },
      'cell.approve': { conversationId, cellId },
      'notebook.rerun': { conversationId },
    };
    let tried = 0;
    for (const [name, input] of Object.entries(valid) as Array<[RequestName, Record<string, unknown>]>) {
      // The starting point is well-formed, so each refusal below is for the one thing changed.
      expect(requests[name].input.safeParse(input).success, name).toBe(true);
      const broken: Array<Record<string, unknown>> = [{ ...input, sneaky: true }];
      for (const key of Object.keys(input)) {
        const { [key]: _dropped, ...without } = input;
        broken.push(without);
        for (const wrong of [42, null, ['x'], { id: input[key] }, '']) broken.push({ ...input, [key]: wrong });
      }
      for (const bad of broken) {
        const reply = await dispatch(name, bad, WS);
        expect(reply.ok, `${name} ${JSON.stringify(bad)}`).toBe(false);
        if (!reply.ok) expect(reply.error.code, `${name} ${JSON.stringify(bad)}`).toBe('invalid-input');
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(40);
    // The turn's wait is untouched: no run or turn started, nothing wrote the marker, the model was not asked.
    expect(events.filter((name) => name.startsWith('cell.') || name.startsWith('turn.'))).toEqual([]);
    expect(existsSync(path.join(workspace, marker))).toBe(false);
    expect(aut.llm.requests).toHaveLength(modelRequests);
  });

  it('answers every request with a result or a clear error, also when the input names real ids', async () => {
    const jsonish = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.double(),
        fc.string(),
        fc.constantFrom(
          conversationId,
          cellId,
          '../../etc/passwd',
          '/etc/shadow',
          'C:\\Windows\\win.ini',
          'CON',
          '\u0000',
          'a'.repeat(5000),
        ),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(
          fc.constantFrom(
            'conversationId',
            'cellId',
            'text',
            'code',
            'title',
            'query',
            'autoRun',
            'exec',
            'model',
            'baseUrl',
            'path',
            'startAt',
            '__proto__',
            'constructor',
          ),
          tie('value'),
          { maxKeys: 5 },
        ),
      ),
    })).value;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...requestNames), fc.string()), jsonish, async (name, input) => {
        const reply = await dispatch(name, input, WS);
        if (!reply.ok) {
          expect(reply.error.message.length).toBeGreaterThan(5);
          expect(['unknown-request', 'invalid-input', 'handler-error']).toContain(reply.error.code);
        }
      }),
      { numRuns: 400, seed: 20261129 },
    );
  });

  it('refuses names that only look like requests', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'chat.send ', 'CHAT.SEND']) {
      const reply = await dispatch(name, {}, WS);
      expect(reply.ok).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('unknown-request');
    }
  });
});
