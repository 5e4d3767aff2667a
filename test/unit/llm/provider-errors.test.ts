import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../src-main/core/llm/provider-errors';

const apiError = (status: number, message: string, headers: Record<string, string> = {}) =>
  Object.assign(new Error(message), { status, headers: new Headers(headers) });

describe('classifyFailure', () => {
  it('reads retry-after in seconds, milliseconds and as a date', () => {
    expect(classifyFailure(apiError(429, 'slow', { 'retry-after': '7' }))).toMatchObject({ kind: 'rate-limited', retryAfterMs: 7000 });
    expect(classifyFailure(apiError(429, 'slow', { 'retry-after-ms': '250', 'retry-after': '7' }))).toMatchObject({ retryAfterMs: 250 });
    const later = new Date(Date.now() + 60_000).toUTCString();
    const fromDate = classifyFailure(apiError(429, 'slow', { 'retry-after': later }));
    expect(fromDate.kind === 'rate-limited' && fromDate.retryAfterMs).toBeGreaterThan(50_000);
    expect(classifyFailure(apiError(503, 'busy'))).toMatchObject({ kind: 'server', status: 503, retryAfterMs: null });
  });

  it.each([
    'registry.ollama.ai/library/gemma:2b does not support tools',
    '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    'tools param requires --jinja flag',
    'Tool use is not supported for this model',
  ])('recognizes a refusal of tools: %s', (message) => {
    expect(classifyFailure(apiError(400, message)).kind).toBe('tools-refused');
  });

  it('treats dropped connections from either SDK as connection failures', () => {
    expect(classifyFailure(new TypeError('terminated')).kind).toBe('connection');
    expect(classifyFailure(Object.assign(new Error('Connection error.'), { name: 'APIConnectionError' })).kind).toBe('connection');
    expect(classifyFailure(new Error('something else')).kind).toBe('other');
  });

  it('separates key problems and an over-long prompt from other client errors', () => {
    expect(classifyFailure(apiError(401, 'bad key')).kind).toBe('auth');
    expect(classifyFailure(apiError(400, "This model's maximum context length is 8192 tokens")).kind).toBe('context-too-long');
    expect(classifyFailure(apiError(400, 'prompt is too long: 210000 tokens > 200000 maximum')).kind).toBe('context-too-long');
    expect(classifyFailure(apiError(404, 'model not found')).kind).toBe('other');
  });
});
