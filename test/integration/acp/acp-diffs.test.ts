import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { updatesOf, useOiAcp } from '../../support/oi-acp';

// A cell's file changes reach the editor as ACP `diff` content, each text file whole before and
// after, read from the checkpoints: `oi acp` driven by the SDK's client side over a real pipe, against
// the scripted model server. Files that are not small UTF-8 text (binary, a secrets file, one over
// the size cap, a deleted one) are named in the cell's text, never diffed.

/** Long enough for a cold start of oi on a loaded two-core machine. */
const TEST_TIMEOUT = 180_000;
/** Made by the cell's shell (not in its code), so its only way out would be the `.env` file's contents. */
const SECRET = 'sk-acp-diff-6451';

describe('oi acp sends a cell’s file changes as diffs', () => {
  const oi = useOiAcp({ tmpPrefix: 'oi-acp-diffs-', args: ['--auto-run'], timeout: TEST_TIMEOUT });

  it(
    'a modified and a created text file come as diffs with their old and new text; binary, secret, oversized and deleted files are only named',
    { timeout: TEST_TIMEOUT },
    async () => {
      const ws = path.join(oi.dir, 'project');
      mkdirSync(ws, { recursive: true });
      writeFileSync(path.join(ws, 'notes.txt'), 'one\ntwo\n');
      writeFileSync(path.join(ws, 'gone.txt'), 'bye\n');
      const { sessionId } = await oi.acp.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
      const code = [
        "printf 'one\\nTWO\\nthree\\n' > notes.txt",
        "printf 'fresh\\n' > new.txt",
        "printf 'PNG\\000\\001\\002\\003' > blob.bin",
        'echo "KEY=sk-acp-diff-$((6000 + 451))" > .env',
        "head -c 300000 /dev/zero | tr '\\000' a > big.txt",
        'rm gone.txt',
      ].join('\n');
      oi.llm.enqueue(
        { kind: 'tool', calls: [{ id: 'call_diffs', name: 'execute', arguments: { language: 'shell', code } }] },
        { kind: 'text', text: 'Done.' },
      );
      const answer = await oi.acp.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'edit the files' }],
      });
      expect(answer.stopReason).toBe('end_turn');

      const [call] = updatesOf(oi.acp, 'tool_call', sessionId);
      const updates = updatesOf(oi.acp, 'tool_call_update', sessionId).filter((u) => u.toolCallId === call!.toolCallId);
      const done = updates.find((u) => u.status === 'completed');
      const content: ToolCallContent[] = done?.content ?? [];
      const diffs = content.flatMap((c) => (c.type === 'diff' ? [c] : []));
      const at = (file: string) => realpathSync(path.join(ws, file));
      expect(diffs.map((d) => ({ ...d, path: realpathSync(d.path) })).sort((a, b) => a.path.localeCompare(b.path))).toEqual(
        [
          { type: 'diff', path: at('new.txt'), oldText: null, newText: 'fresh\n' },
          { type: 'diff', path: at('notes.txt'), oldText: 'one\ntwo\n', newText: 'one\nTWO\nthree\n' },
        ].sort((a, b) => a.path.localeCompare(b.path)),
      );
      // The rest are named in the cell's text; the secrets file's contents go nowhere.
      const said = JSON.stringify(content.filter((c) => c.type === 'content'));
      for (const named of ['created blob.bin', 'created big.txt', 'deleted gone.txt', 'created new.txt', 'modified notes.txt'])
        expect(said).toContain(named);
      expect(JSON.stringify(oi.acp.updates)).not.toContain(SECRET);
      // Only the completed update carries diffs: the ones while it ran have nothing to compare yet.
      expect(updates.filter((u) => u.content?.some((c) => c.type === 'diff'))).toEqual([done]);
    },
  );
});
