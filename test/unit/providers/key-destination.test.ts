import { describe, expect, it } from 'vitest';
import { planListing, sameEndpoint } from '../../../src-main/core/providers/key-destination';

// Where a stored key may go (issue 17, finding 4); the attack itself: test/security/attacks/key-read-back.

const settings = {
  provider: 'openai-compatible' as const,
  baseUrl: 'http://localhost:1234/v1',
  providerModels: { anthropic: { model: 'claude-x', baseUrl: 'https://proxy.example/anthropic' } },
};

describe('planListing', () => {
  it("sends a stored key only to the saved base URL (current or remembered) or the provider's own", () => {
    expect(planListing('openai-compatible', {}, settings)).toEqual({ kind: 'stored', baseUrl: 'http://localhost:1234/v1' });
    expect(planListing('openai-compatible', { baseUrl: 'http://LOCALHOST:1234/v1/' }, settings)).toMatchObject({ kind: 'stored' });
    expect(planListing('anthropic', {}, settings)).toEqual({ kind: 'stored', baseUrl: 'https://proxy.example/anthropic' });
    expect(planListing('openai', { baseUrl: 'https://api.openai.com/v1' }, settings)).toMatchObject({ kind: 'stored' });
    expect(planListing('openai', { baseUrl: null }, settings)).toEqual({ kind: 'stored', baseUrl: null });
  });

  it('holds the stored key back from any other URL, however it is spelled', () => {
    for (const baseUrl of [
      'http://127.0.0.1:9/v1',
      'http://localhost:1234/v2',
      'http://user@localhost:1234/v1',
      'http://localhost:1234/v1?x',
      'https://api.openai.com.evil.example/v1',
      'https://api.openai.com:444/v1',
    ]) {
      expect(planListing('openai-compatible', { baseUrl }, settings).kind, baseUrl).toBe('no-stored-key');
      expect(planListing('openai', { baseUrl }, settings).kind, baseUrl).toBe('no-stored-key');
    }
  });

  it('lets a typed key go where the request says', () => {
    expect(planListing('openai', { key: ' sk-typed ', baseUrl: 'http://127.0.0.1:9/v1' }, settings)).toEqual({
      kind: 'typed',
      key: 'sk-typed',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
  });

  it('compares endpoints by scheme, host, port and path only', () => {
    expect(sameEndpoint('https://api.openai.com/v1', 'https://API.openai.com:443/v1/')).toBe(true);
    expect(sameEndpoint('http://a/v1', 'https://a/v1')).toBe(false);
    expect(sameEndpoint('not a url', 'not a url')).toBe(false);
    expect(sameEndpoint(null, null)).toBe(false);
  });
});
