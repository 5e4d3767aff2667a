import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src-main/cli/cli-args';
import { parseMcpArgs } from '../../../src-main/cli/mcp-args';

// `oi mcp`'s options: a bad one is refused naming the problem, before anything starts.

describe('oi mcp options', () => {
  it('defaults to stdio in the current folder, refusing code and writes', () => {
    expect(parseMcpArgs([], {}, '/home/me/work')).toEqual({
      workspace: '/home/me/work',
      autoRun: false,
      sandbox: null,
      httpPort: null,
      token: null,
      askTimeoutMs: 50_000,
      idleTimeoutMs: 1_800_000,
      help: false,
    });
    expect(parseMcpArgs(['--http', '0', '--idle-timeout', '90'], {}, '/').idleTimeoutMs).toBe(90_000);
    expect(parseMcpArgs(['--http', '0', '--idle-timeout', '0'], {}, '/').idleTimeoutMs).toBe(0);
    expect(parseMcpArgs(['--ask-timeout', '120'], {}, '/').askTimeoutMs).toBe(120_000);
  });

  it('reads --workspace (relative to the current folder), --auto-run, --sandbox, --http and the token', () => {
    const token = 'abcdefghijklmnop-1234';
    expect(parseMcpArgs(['--workspace', 'data', '-y', '--sandbox', '--http', '0', '--token', token], {}, '/home/me')).toMatchObject({
      workspace: '/home/me/data',
      autoRun: true,
      sandbox: true,
      httpPort: 0,
      token,
    });
    expect(parseMcpArgs(['--http', '8765'], { OI_MCP_TOKEN: token }, '/').token).toBe(token);
  });

  it.each([
    [['--http', 'eighty'], /--http needs a port number \(0–65535\); got "eighty"/],
    [['--http', '70000'], /--http needs a port number/],
    [['--http', '8765', '--token', 'short'], /at least 16 characters/],
    [['--token', 'abcdefghijklmnop-1234'], /--token \(or OI_MCP_TOKEN\) is for --http/],
    [['--model', 'gpt-4.1'], /Unknown option '--model'[\s\S]*oi mcp --help/],
    [['extra'], /oi mcp --help/],
    [['--ask-timeout', '0'], /--ask-timeout needs a number of seconds \(1–3600\); got "0"/],
    [['--ask-timeout', 'soon'], /--ask-timeout needs a number of seconds/],
    [['--idle-timeout', '60'], /--idle-timeout is for --http/],
    [['--http', '0', '--idle-timeout', 'later'], /--idle-timeout needs a number of seconds \(0 for never, at most 604800\); got "later"/],
    [['--http', '0', '--idle-timeout=-5'], /--idle-timeout needs a number of seconds/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseMcpArgs(argv, {}, '/')).toThrow(UsageError);
    expect(() => parseMcpArgs(argv, {}, '/')).toThrow(message);
  });
});
