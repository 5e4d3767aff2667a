import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runOi } from '../../support/cli-process';
import { jsonEvents, useCliRun } from '../../support/cli-run';

// `oi -m --json` with an Ollama model whose window (8,192 tokens, from /api/show) is smaller than the
// message: sent whole, Ollama would cut the prompt from the front, system prompt first, and say nothing.

const cli = useCliRun();

const WINDOW = 8192;

interface OllamaChat {
  messages: { role: string; content: string }[];
  options?: { num_ctx?: number };
}

describe('a message larger than an Ollama model’s window', () => {
  it('is shortened in the middle to fit num_ctx, keeping the system prompt, and the person is told', async () => {
    const { llm, dir } = await cli.start('oi-cli-window-', { models: ['small:1b'], ollama: { contextLength: { 'small:1b': WINDOW } } });
    llm.enqueue({ kind: 'text', text: 'Read it.' });
    // About 14,000 tokens of pasted text, with a head and a tail the model must still see.
    const message = `HEAD-OF-PASTE ${'lorem ipsum dolor sit amet '.repeat(2000)} TAIL-OF-PASTE`;
    const args = ['--provider', 'ollama', '--model', 'small:1b', '--base-url', llm.openaiBaseUrl];
    const result = await runOi([...args, '--workspace', path.join(dir, 'ws'), '--json', '-m', message], cliEnv(dir));

    expect(result.code).toBe(0);
    const chat = llm.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as OllamaChat);
    expect(chat).toHaveLength(1);
    const [system, user] = [chat[0]?.messages[0], chat[0]?.messages.at(-1)];
    expect(system?.role).toBe('system');
    expect(user?.content).toContain('HEAD-OF-PASTE');
    expect(user?.content).toContain('TAIL-OF-PASTE');
    expect(user?.content).toMatch(/characters left out to fit the context window/);
    expect(user?.content.length).toBeLessThan(message.length / 2);
    expect(chat[0]?.options?.num_ctx).toBeLessThanOrEqual(WINDOW);
    const notices = jsonEvents(result.stdout).flatMap((e) => (e.name === 'notice' ? [e.payload.item.text] : []));
    expect(notices).toContainEqual(
      expect.stringMatching(/8,192-token context window: the middle of a message too long for it was left out/),
    );
  });
});
