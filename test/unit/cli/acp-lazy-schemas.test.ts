import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lazySchemaModule } from '../../../lazy-acp-schemas.config';
import { tempDir } from '../../support/cli-process';

// The build step that has the ACP SDK's schemas built on first use (lazy-acp-schemas.config.ts,
// docs/acp.md#speed), on the SDK's own schema module: what the lazy module accepts, salvages and
// refuses must be what the SDK's module does, message for message.

const require = createRequire(import.meta.url);
// The package's entry is dist/v1/stable/acp.js; the schemas it checks with are dist/v1/schema/zod.gen.js.
const SCHEMAS = path.resolve(path.dirname(require.resolve('@agentclientprotocol/sdk')), '..', 'schema', 'zod.gen.js');

type Schemas = Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } } }>;

const dir = tempDir('oi-lazy-acp-');
afterAll(() => dir.remove());

/** The SDK's schema module as the build makes it, loaded from a file of its own beside the SDK's. */
async function lazyModule(): Promise<Schemas> {
  const code = lazySchemaModule(readFileSync(SCHEMAS, 'utf8'), SCHEMAS)
    // The copy lives in a temporary folder: its imports named by where they resolve from the SDK's.
    .replace('"zod/v4"', JSON.stringify(pathToFileURL(createRequire(SCHEMAS).resolve('zod/v4')).href))
    .replace(/"(\.\.\/\.\.\/core\/[\w-]+\.js)"/g, (_, rel: string) =>
      JSON.stringify(pathToFileURL(path.resolve(path.dirname(SCHEMAS), rel)).href),
    )
    .replace(/\/\/# sourceMappingURL=.*$/m, '');
  const file = path.join(dir.dir, 'zod.gen.lazy.mjs');
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as Schemas;
}

/** What a client sends an agent, and what an agent sends a client, well formed and not. */
const MESSAGES: [string, unknown][] = [
  ['zInitializeRequest', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true } } }],
  ['zInitializeRequest', { protocolVersion: 'one', clientCapabilities: {} }],
  ['zNewSessionRequest', { cwd: '/home/me/project', mcpServers: [{ name: 'fs', command: 'mcp-fs', args: ['.'], env: [] }] }],
  ['zNewSessionRequest', { cwd: '/p', mcpServers: [{ type: 'http', name: 'web', url: 'https://example.com/mcp', headers: [] }] }],
  ['zNewSessionRequest', { cwd: 42, mcpServers: [] }],
  ['zNewSessionRequest', { cwd: '/p', mcpServers: [], _meta: 'not a record' }],
  ['zLoadSessionRequest', { sessionId: 's1', cwd: '/p', mcpServers: [] }],
  ['zPromptRequest', { sessionId: 's1', prompt: [{ type: 'text', text: 'print 1' }] }],
  ['zPromptRequest', { sessionId: 's1', prompt: [{ type: 'resource_link', uri: 'file:///p/a.py', name: 'a.py' }] }],
  ['zPromptRequest', { sessionId: 's1', prompt: [{ type: 'text' }] }],
  ['zPromptRequest', { sessionId: 's1', prompt: 'print 1' }],
  ['zCancelNotification', { sessionId: 's1' }],
  ['zSetSessionModeRequest', { sessionId: 's1', modeId: 'ask' }],
  ['zRequestPermissionResponse', { outcome: { outcome: 'selected', optionId: 'allow-once' } }],
  ['zRequestPermissionResponse', { outcome: { outcome: 'maybe' } }],
  [
    'zSessionNotification',
    { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'echo 1', kind: 'execute', status: 'pending' } },
  ],
  ['zSessionNotification', { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } }],
  ['zSessionNotification', { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk' } }],
];

describe('the ACP SDK schemas built on first use', () => {
  it('accept, salvage and refuse every message as the SDK’s own schemas do, and there is one for each', async () => {
    const eager = (await import(pathToFileURL(SCHEMAS).href)) as Schemas;
    const lazy = await lazyModule();
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(eager).sort());
    let refused = 0;
    for (const [name, message] of MESSAGES) {
      const want = eager[name]!.safeParse(message);
      const got = lazy[name]!.safeParse(message);
      expect({ name, success: got.success, data: got.data, issues: got.error?.issues }).toEqual({
        name,
        success: want.success,
        data: want.data,
        issues: want.error?.issues,
      });
      if (!want.success) refused++;
    }
    // The samples include refused messages, so the comparison covers the checks and not only the happy path.
    expect(refused).toBeGreaterThanOrEqual(5);
  });

  it('stops the build on a module it cannot make lazy without changing it', () => {
    const head = 'import * as z from "zod/v4";\nexport const zA = z.object({ a: z.string() });\n';
    expect(lazySchemaModule(head, 'ok.js')).toContain('z.lazy(() => (z.object({ a: z.string() })))');
    // A lazy schema has no `.extend` (nor `.shape`, `.pick`…): that use needs the object schema itself.
    expect(() => lazySchemaModule(`${head}export const zB = zA.extend({ b: z.number() });\n`, 'extend.js')).toThrow(/zA\.extend/);
    expect(() => lazySchemaModule(`${head}zA.parse({});\n`, 'statement.js')).toThrow(/top-level statement/);
    expect(() => lazySchemaModule('export const zA = 1;\n', 'no-zod.js')).toThrow(/no `import \* as z/);
  });
});
