import { describe, expect, it } from 'vitest';
import { redactOutput, SecretRedactor } from '../../../src-main/core/exec/output/redactor';

const KEY = 'sk-proj-0123456789abcdefghij';

describe('SecretRedactor', () => {
  it('redacts a key split at every position over two chunks, passing everything else through', () => {
    const text = `before ${KEY} middle ${KEY}\nafter sk-pro`;
    const whole = new SecretRedactor([{ value: KEY, label: 'openai key' }]).redact(text);
    expect(whole).toBe('before [redacted: openai key] middle [redacted: openai key]\nafter sk-pro');
    for (let at = 0; at <= text.length; at++) {
      const r = new SecretRedactor([{ value: `${KEY}\n`, label: 'openai key' }]);
      const out = [r.push(text.slice(0, at)), r.push(text.slice(at)), r.flush()];
      expect(out.join(''), `split at ${at}`).toBe(whole);
      expect(out[0]).not.toContain(KEY.slice(0, KEY.length - 1));
    }
  });

  it('holds back only an end that could begin a key', () => {
    const r = new SecretRedactor([{ value: KEY, label: 'openai key' }]);
    expect(r.push('plain text, nothing held')).toBe('plain text, nothing held');
    expect(r.push('x sk-proj-01')).toBe('x ');
    expect(r.flush()).toBe('sk-proj-01');
  });

  it('ignores values too short to be keys and redacts every string of an output', () => {
    const r = new SecretRedactor([
      { value: 'short', label: 'x' },
      { value: KEY, label: 'groq key' },
    ]);
    expect(r.redact('short text')).toBe('short text');
    const output = redactOutput({ output_type: 'error', ename: 'ValueError', evalue: KEY, traceback: [`line ${KEY}`] }, r);
    expect(JSON.stringify(output)).not.toContain(KEY);
    expect(output).toMatchObject({ evalue: '[redacted: groq key]', traceback: ['line [redacted: groq key]'] });
  });
});
