import { describe, expect, it } from 'vitest';
import { forTerminal } from '../../../src-main/cli/terminal-places';

describe('places in the desktop app, said for the terminal', () => {
  it('names the oi options where they exist', () => {
    expect(forTerminal('check the base URL and port in Settings → Model.')).toBe(
      "check the base URL and port with --model / --base-url (or in the desktop app's Settings → Model).",
    );
    expect(forTerminal('start the model server, or check the port in the base URL (Settings → Model).')).toBe(
      "start the model server, or check the port in the base URL (--model, --base-url; or the desktop app's Settings → Model).",
    );
    expect(forTerminal('needs a base URL (Settings → Provider, or --base-url)')).toBe('needs a base URL (--provider and --base-url)');
  });

  it('says "the desktop app\'s" for every other Settings place, once, and leaves other text alone', () => {
    const out = forTerminal('set it in Settings → MCP servers; Settings → Checkpoints too');
    expect(out).toBe("set it in the desktop app's Settings → MCP servers; the desktop app's Settings → Checkpoints too");
    expect(forTerminal(out)).toBe(out);
    expect(forTerminal('no settings here')).toBe('no settings here');
  });
});
