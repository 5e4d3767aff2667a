import { describe, expect, it } from 'vitest';
import { HeadTail, splitBudget } from '../../../src-main/core/exec/output/head-tail';

describe('HeadTail', () => {
  it('keeps short text whole', () => {
    const ht = new HeadTail(10, 10);
    ht.push('short\n');
    expect(ht.render()).toBe('short\n');
  });

  it('keeps the head and tail and says how much was elided', () => {
    const ht = new HeadTail(12, 12);
    for (let i = 0; i < 1000; i++) ht.push(`line ${String(i).padStart(4, '0')}\n`);
    const out = ht.render();
    expect(out.startsWith('line 0000\nli')).toBe(true);
    expect(out.endsWith('e 0999\n')).toBe(true);
    expect(out).toContain('… 9,976 characters (997 lines) elided …');
  });

  it('stays bounded however much is pushed', () => {
    const ht = new HeadTail(100, 100);
    for (let i = 0; i < 10_000; i++) ht.push('x'.repeat(1000));
    expect(ht.render().length).toBeLessThan(300);
    expect(ht.totalChars).toBe(10_000_000);
  });

  it('gives the tail the larger share of the budget', () => {
    const { head, tail } = splitBudget(6000);
    expect(head + tail).toBe(6000);
    expect(tail).toBeGreaterThan(head);
  });
});
