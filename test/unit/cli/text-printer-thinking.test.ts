import { describe, expect, it } from 'vitest';
import type { AnyEvent } from '@contract';
import { TextPrinter } from '../../../src-main/cli/text-printer';
import { styleFor } from '../../../src-main/cli/terminal-style';

const conv = { conversationId: 'c1' };

function printed(events: AnyEvent[], color = false): string {
  let out = '';
  const printer = new TextPrinter((t) => (out += t), styleFor({ isTTY: false }, color ? { FORCE_COLOR: '1' } : {}));
  for (const e of events) printer.handle(e);
  return out;
}

describe('the terminal printer and extended thinking', () => {
  const thinking = (text: string, block = 0): AnyEvent => ({
    name: 'assistant.thinking-delta',
    payload: { ...conv, itemId: 'a1', block, text },
  });
  const answer = (text: string): AnyEvent => ({ name: 'assistant.delta', payload: { ...conv, itemId: 'a1', text } });

  it('prints thinking under its own heading, then the answer on a line of its own', () => {
    expect(printed([thinking('Let me '), thinking('check.'), answer('The answer is 4.')])).toBe(
      'thinking…\nLet me check.\n\nThe answer is 4.',
    );
  });

  it('starts a new heading for a second block and dims thinking in colour terminals', () => {
    const out = printed([thinking('one'), thinking('two', 1), answer('done')], true);
    expect(out.match(/thinking…/g)).toHaveLength(2);
    expect(out).toContain('\x1b[2mone\x1b[22m');
    expect(out).toContain('done');
    expect(out).not.toContain('\x1b[2mdone');
  });
});
