import { describe, expect, it } from 'vitest';
import { call, textOf, useOiMcp } from '../../support/oi-mcp';

// `oi mcp` driven by the SDK's MCP client: a run that misses a package is not installed (no person is
// at a conversation to be asked), and the model is told that, not that someone said no.

const oi = useOiMcp();

describe('oi mcp and a missing package', () => {
  it('says nobody could be asked about the install, never that the user declined it', { timeout: 120_000 }, async () => {
    const { env, ws } = oi.data('oi-mcp-install-');
    const { client } = await oi.stdio(['--workspace', ws, '--auto-run'], env, ws);
    const result = await call(client, 'execute', { language: 'python', code: 'import oi_package_nobody_installs' });
    const text = textOf(result);
    expect(text).toContain('ModuleNotFoundError');
    expect(text).toMatch(/Nobody could be asked whether to run `[^`]*pip install [^`]*oi_package_nobody_installs`/);
    expect(text).not.toMatch(/declined/i);
  });
});
