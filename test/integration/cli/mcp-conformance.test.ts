import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../support/cli-process';
import { node22Tools } from '../../support/node22-tools';
import { useOiMcp } from '../../support/oi-mcp';

// `oi mcp --http` under the official MCP conformance suite (@modelcontextprotocol/conformance, run on
// Node 22 from test/support/node22-tools.ts). The suite's server scenarios are written against its own
// reference server (tools named test_image_content, resources, prompts, sampling): the ones that apply
// to any server must pass, and the rest are the suite's own expected-failures baseline, which fails the
// run if a scenario fails that is not listed or a listed one starts to pass (docs/mcp.md says why each).

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'mcp');
/** Scenarios about any server (lifecycle, ping, listing tools, streams, DNS rebinding): all their checks pass. */
const MUST_PASS = ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** The checks of each scenario the suite saved in `dir` (one folder per scenario: server-<name>-<time>). */
function checksByScenario(dir: string): Map<string, Check[]> {
  const out = new Map<string, Check[]>();
  for (const entry of readdirSync(dir)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry)?.[1];
    if (name) out.set(name, JSON.parse(readFileSync(path.join(dir, entry, 'checks.json'), 'utf8')) as Check[]);
  }
  return out;
}

const oi = useOiMcp();

describe('oi mcp --http under the MCP conformance suite', () => {
  it('passes the server scenarios that apply to it, and fails only the ones in the baseline', { timeout: 600_000 }, async () => {
    const tools = await node22Tools();
    const { dir, env: oiEnv, ws } = oi.data('oi-mcp-conformance-');
    const http = await oi.http(['--workspace', ws, '--auto-run'], oiEnv, ws);
    const results = path.join(dir, 'results');
    // The suite is told "localhost", a name the server accepts as its Host (the DNS-rebinding scenario needs one).
    const url = `http://localhost:${http.url.port}/mcp`;
    const env = {
      ...process.env,
      OI_CONFORMANCE_UNDICI: tools.undici,
      OI_CONFORMANCE_TOKEN: http.token,
      OI_CONFORMANCE_PORT: http.url.port,
    };
    const args = ['--import', path.join(FIXTURES, 'bearer-preload.mjs'), tools.conformance, 'server', '--url', url];
    const run = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        tools.node,
        [...args, '--expected-failures', path.join(FIXTURES, 'conformance-expected-failures.yml'), '-o', results],
        { env, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }),
      );
    });
    const checks = checksByScenario(results);
    for (const name of MUST_PASS) {
      const failed = (checks.get(name) ?? []).filter((c) => c.status === 'FAILURE');
      expect(checks.get(name)?.length, `scenario ${name} did not run`).toBeGreaterThan(0);
      expect(failed, `${name}: ${JSON.stringify(failed)}`).toEqual([]);
    }
    // The DNS-rebinding checks really ran against our Host and Origin rules: one refused, one served.
    expect(checks.get('dns-rebinding-protection')?.map((c) => `${c.id}:${c.status}`)).toEqual([
      'localhost-host-rebinding-rejected:SUCCESS',
      'localhost-host-valid-accepted:SUCCESS',
    ]);
    // Exit 0: every failure is in the baseline and every baseline entry still fails.
    expect(run.code, run.out.slice(-6000)).toBe(0);
  });
});
