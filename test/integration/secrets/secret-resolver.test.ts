import { describe, expect, it } from 'vitest';
import { EnvSecretSource } from '../../../src-main/core/secrets/env-secret-source';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { SecretResolver } from '../../../src-main/core/secrets/secret-resolver';
import { providerAccount } from '../../../src-main/core/secrets/secret-store';

const OPENAI = providerAccount('openai');
const ANTHROPIC = providerAccount('anthropic');
const ENV_KEY = 'sk-env-0000000000000000ENV1';
const STORED_KEY = 'sk-stored-11111111111111STO2';

function resolverWith(env: Record<string, string>) {
  const store = new MemorySecretStore();
  const source = new EnvSecretSource(env);
  return { store, source, resolver: new SecretResolver(store, source) };
}

describe('environment keys and the resolver', () => {
  it('maps the usual variables to provider accounts, trimming the newline a shell capture leaves', () => {
    const source = new EnvSecretSource({
      OPENAI_API_KEY: `${ENV_KEY}\n`,
      ANTHROPIC_API_KEY: 'sk-ant-x',
      OPENROUTER_API_KEY: 'sk-or-x',
      GROQ_API_KEY: 'gsk-x',
      GROQ_OTHER: 'ignored',
      MISTRAL_API_KEY: '   ',
    });
    expect(source.get(OPENAI)).toBe(ENV_KEY);
    expect(source.get(ANTHROPIC)).toBe('sk-ant-x');
    expect(source.get(providerAccount('openrouter'))).toBe('sk-or-x');
    expect(source.get(providerAccount('groq'))).toBe('gsk-x');
    expect(source.get(providerAccount('mistral'))).toBeNull();
    expect(source.variableFor(OPENAI)).toBe('OPENAI_API_KEY');
    expect(source.variableNames()).toEqual(expect.arrayContaining(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GROQ_API_KEY']));
  });

  it('is read-only: copied at start, unaffected by later changes to the environment, and offers no way to write', () => {
    const env: Record<string, string> = { OPENAI_API_KEY: ENV_KEY };
    const source = new EnvSecretSource(env);
    env.OPENAI_API_KEY = 'sk-injected-later';
    expect(source.get(OPENAI)).toBe(ENV_KEY);
    expect('set' in source).toBe(false);
    expect('delete' in source).toBe(false);
  });

  it('prefers the stored key, falls back to the environment, and deleting the stored one leaves the variable alone', async () => {
    const { store, resolver } = resolverWith({ OPENAI_API_KEY: ENV_KEY });
    expect(await resolver.get(OPENAI)).toBe(ENV_KEY);
    await store.set(OPENAI, STORED_KEY);
    expect(await resolver.get(OPENAI)).toBe(STORED_KEY);
    await store.delete(OPENAI);
    expect(await resolver.get(OPENAI)).toBe(ENV_KEY);
    expect(await resolver.get(ANTHROPIC)).toBeNull();
  });

  it('describes where a key comes from with its last four characters only', async () => {
    const { store, resolver } = resolverWith({ OPENAI_API_KEY: ENV_KEY });
    expect(await resolver.describe(OPENAI)).toEqual({ source: 'env', last4: 'ENV1' });
    await store.set(OPENAI, STORED_KEY);
    const described = await resolver.describe(OPENAI);
    expect(described).toEqual({ source: 'memory', last4: 'STO2' });
    expect(JSON.stringify(described)).not.toContain(STORED_KEY.slice(0, -4));
    expect(await resolver.describe(ANTHROPIC)).toEqual({ source: null, last4: null });
  });

  it('shows no characters of a key too short to mask', async () => {
    const { store, resolver } = resolverWith({});
    await store.set(ANTHROPIC, 'tiny-key');
    expect(await resolver.describe(ANTHROPIC)).toEqual({ source: 'memory', last4: null });
  });

  it('lists every reachable key for leak checks, longest first and without duplicates', async () => {
    const { store, resolver } = resolverWith({ OPENAI_API_KEY: ENV_KEY, GROQ_API_KEY: 'gsk-short' });
    await store.set(OPENAI, STORED_KEY + 'longer');
    await store.set(providerAccount('groq'), 'gsk-short');
    expect(await resolver.allValues()).toEqual([STORED_KEY + 'longer', ENV_KEY, 'gsk-short']);
  });

  it('refuses reserved and empty names and empty values with a message that says what to do', async () => {
    const store = new MemorySecretStore();
    await expect(store.set('oi-internal/chunk/x', 'v')).rejects.toThrow(/reserved/);
    await expect(store.set('', 'v')).rejects.toThrow(/account name/);
    await expect(store.set(OPENAI, '')).rejects.toThrow(/delete it instead/);
  });
});
