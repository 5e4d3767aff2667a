import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../src-main/core/llm/execute-tool';
import { buildProvider } from '../../../src-main/core/llm/provider-factory';
import type { Provider, ProviderRequest } from '../../../src-main/core/llm/provider';
import { classifyFailure, describeFailure } from '../../../src-main/core/llm/provider-errors';
import { streamWithRetries, type RetryPolicy } from '../../../src-main/core/llm/retry-with-backoff';
import { startScriptedLlm } from '../../fixtures/llm-server';
import { closedPort } from '../../support/closed-port';

// Real failures through the official SDKs: nothing listening, no such host, a refused key. The
// sentence the user reads must name the URL, say whether the network or the key is at fault, and
// say what to try.

const request = (): ProviderRequest => ({
  model: 'some-model',
  system: 'be brief',
  items: [{ kind: 'user', id: 'u1', text: 'hi', attachments: [], createdAt: '2026-01-01T00:00:00Z' }],
  tools: [executeTool],
  images: new Map(),
  temperature: null,
  maxOutputTokens: 256,
  maxOutputTokensSet: false,
  signal: new AbortController().signal,
});

async function failureOf(provider: Provider): Promise<unknown> {
  try {
    // Drained for the error it ends with.
    for await (const _ of provider.stream(request())) continue;
  } catch (err) {
    return err;
  }
  throw new Error('the call did not fail');
}

describe.each([
  ['openai', (baseUrl: string) => buildProvider({ provider: 'openai', baseUrl }, 'sk-test-0000')],
  ['anthropic', (baseUrl: string) => buildProvider({ provider: 'anthropic', baseUrl }, 'sk-ant-test-0000')],
] as const)('a %s call that cannot connect', (kind, make) => {
  it('names the URL, blames the network (not the key) and says to start the server, when nothing listens', async () => {
    const port = await closedPort();
    const provider = make(kind === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`);
    const failure = classifyFailure(await failureOf(provider));
    expect(failure).toMatchObject({ kind: 'connection', code: 'ECONNREFUSED' });
    const text = describeFailure(failure, kind, provider.endpoint);
    expect(text).toContain(`http://127.0.0.1:${port}`);
    expect(text).toMatch(
      /nothing is listening .* \(connection refused\)\. This is a network problem, not the API key: start the model server/,
    );
  });

  it("says the port is one fetch never connects to, for a port on the fetch standard's blocked list", async () => {
    // 6000 (X11) is on the list: Node's fetch refuses it before connecting, whatever listens there.
    const provider = make(kind === 'openai' ? 'http://127.0.0.1:6000/v1' : 'http://127.0.0.1:6000');
    const failure = classifyFailure(await failureOf(provider));
    expect(failure).toMatchObject({ kind: 'connection', code: null, detail: 'bad port' });
    expect(describeFailure(failure, kind, provider.endpoint)).toMatch(
      /the port of http:\/\/127\.0\.0\.1:6000 is one that fetch never connects to .*not the API key: run the model server on another port/,
    );
  });

  it('says the address could not be found when the host does not exist', async () => {
    const provider = make('http://no-such-host.invalid/v1');
    const failure = classifyFailure(await failureOf(provider));
    expect(failure).toMatchObject({ kind: 'connection' });
    expect(describeFailure(failure, kind, provider.endpoint)).toMatch(
      /the address no-such-host\.invalid could not be found \(DNS lookup failed\)\. This is a network problem, not the API key: check that this machine is online/,
    );
  });
});

describe('a refused key', () => {
  it('is the key, and says so with the URL', async () => {
    const llm = await startScriptedLlm();
    try {
      llm.enqueue({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
      const provider = buildProvider({ provider: 'openai', baseUrl: llm.openaiBaseUrl }, 'sk-wrong-0000');
      const text = describeFailure(classifyFailure(await failureOf(provider)), 'openai', provider.endpoint);
      expect(text).toBe(
        `the OpenAI API at ${llm.openaiBaseUrl} refused the key (401 Incorrect API key provided). The network is fine; the key is not: check it in Settings → API keys, or the environment variable that holds it.`,
      );
    } finally {
      await llm.close();
    }
  });
});

describe('retries', () => {
  const counting = (): RetryPolicy & { sleeps: number } => {
    const policy = {
      maxAttempts: 5,
      baseDelayMs: 1,
      maxDelayMs: 1,
      maxRetryAfterMs: 1,
      sleeps: 0,
      sleep: async () => {
        policy.sleeps++;
      },
    };
    return policy;
  };

  it.each([
    ['a refused connection: the user hears at once', async () => `http://127.0.0.1:${await closedPort()}/v1`],
    ['a blocked port either (the same refusal every time)', async () => 'http://127.0.0.1:6000/v1'],
  ])('does not retry %s', async (_, baseUrl) => {
    const provider = buildProvider({ provider: 'openai', baseUrl: await baseUrl() }, 'sk-test-0000');
    const policy = counting();
    await expect(async () => {
      for await (const _ of streamWithRetries(
        () => provider.stream(request()),
        policy,
        new AbortController().signal,
        () => undefined,
      ))
        continue;
    }).rejects.toThrow();
    expect(policy.sleeps).toBe(0);
  });

  it('still retries a connection cut off mid-way', async () => {
    const llm = await startScriptedLlm();
    try {
      llm.enqueue({ kind: 'drop' }, { kind: 'text', text: 'second time lucky' });
      const provider = buildProvider({ provider: 'openai', baseUrl: llm.openaiBaseUrl }, 'sk-test-0000');
      const policy = counting();
      let text = '';
      for await (const ev of streamWithRetries(
        () => provider.stream(request()),
        policy,
        new AbortController().signal,
        () => undefined,
      ))
        if (ev.type === 'text') text += ev.text;
      expect(text).toBe('second time lucky');
      expect(policy.sleeps).toBe(1);
    } finally {
      await llm.close();
    }
  });
});
