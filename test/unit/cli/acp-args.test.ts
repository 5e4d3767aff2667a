import { describe, expect, it } from 'vitest';
import { RequestError } from '@agentclientprotocol/sdk';
import { parseAcpArgs } from '../../../src-main/cli/acp/acp-args';
import { promptText } from '../../../src-main/cli/acp/acp-prompt';
import { UsageError } from '../../../src-main/cli/cli-args';

describe('oi acp options', () => {
  it('takes the model and run flags of oi as this run’s settings', () => {
    const opts = parseAcpArgs(['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '-y', '--no-sandbox']);
    expect(opts.overrides).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      autoRun: true,
      sandbox: { enabled: false, chosen: true },
    });
  });

  it('refuses the flags the editor owns (message, conversation, folder), naming them', () => {
    expect(() => parseAcpArgs(['-m', 'hi', '--workspace', '/tmp'])).toThrow(UsageError);
    expect(() => parseAcpArgs(['-m', 'hi', '--workspace', '/tmp'])).toThrow(/^-m, --workspace: not an option of oi acp/);
    expect(() => parseAcpArgs(['--continue'])).toThrow(/--continue/);
    expect(() => parseAcpArgs(['--provider', 'openai'])).toThrow(/--provider needs --model/);
  });
});

describe('an ACP prompt as the model’s message', () => {
  it('joins text, names a linked file by its path and gives an embedded file whole with its path', () => {
    const text = promptText([
      { type: 'text', text: 'Look at' },
      { type: 'resource_link', name: 'a b.py', uri: 'file:///home/me/a%20b.py' },
      { type: 'resource', resource: { uri: 'file:///home/me/c.py', text: 'print(1)' } },
    ]);
    expect(text).toBe('Look at\n@/home/me/a b.py\n<file path="/home/me/c.py">\nprint(1)\n</file>');
  });

  it('refuses content it did not offer to take, and an empty prompt, as invalid params', () => {
    const image = () => promptText([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]);
    expect(image).toThrow(RequestError);
    expect(image).toThrow(/does not take image content/);
    expect(() => promptText([{ type: 'text', text: '  ' }])).toThrow(/the prompt is empty/);
  });
});
