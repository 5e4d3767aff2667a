import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../../fixtures/llm-server';
import { importNotebook } from '../../../src-main/core/notebook/api';
import { notebookTextOf } from '../../../src-main/core/notebook/notebook-files';
import { loadSubagents } from '../../../src-main/core/notebook/subagent-section';
import { startAgentHarness, type AgentHarness } from '../../support/agent-harness';
import { rerunNotebooks } from '../../support/rerun-worker';
import { subagentRoute } from '../../support/subagent-route';

// A sub-agent's cells in its parent's notebook (docs/notebooks.md, docs/agent.md#sub-agents): a full
// turn with the scripted model in which the parent delegates writing a file and then reads it; the
// parent's export holds the sub-agent's cells under a heading right after the call, and re-run top to
// bottom in an empty folder (nbclient, a real python3 kernel) the parent's later cell reads what the
// sub-agent's cell wrote there. Import leaves the heading out.

const META = { appVersion: 'test', provider: 'test', model: 'test', resourcesDir: path.resolve(import.meta.dirname, '../../../resources') };
const sh = (id: string, code: string): ScriptedReply => ({
  kind: 'tool',
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});

describe('a sub-agent in its parent’s notebook', () => {
  let h: AgentHarness | undefined;
  const folder = mkdtempSync(path.join(os.tmpdir(), 'oi-subagent-export-'));
  afterAll(async () => {
    await h?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('exports its cells under a heading after the call, and the notebook re-runs them in order', { timeout: 120_000 }, async () => {
    const scripts: Record<string, ScriptedReply[]> = {
      parent: [
        {
          kind: 'tool',
          calls: [
            { id: 'd1', name: 'delegate', arguments: { name: 'writer', task: 'Write sub.txt.', returns: 'what you wrote', write: true } },
          ],
        },
        sh('p1', 'cat sub.txt'),
        { kind: 'text', text: 'Read it back.' },
      ],
      writer: [sh('w1', 'echo from-the-sub-agent > sub.txt'), { kind: 'text', text: 'WROTE sub.txt' }],
    };
    const harness = await startAgentHarness({ settings: { autoRun: true }, llm: { onRequest: subagentRoute(scripts, () => h?.llm) } });
    h = harness;
    const id = await harness.newConversation();
    await harness.send(id, 'Write sub.txt with a sub-agent, then read it.');
    const parent = await harness.agent.snapshot(id);
    const subs = await loadSubagents(parent, (sub) => harness.agent.snapshot(sub));
    expect(subs.size).toBe(1);

    const { text } = notebookTextOf(parent, META, subs);
    const nb = JSON.parse(text) as { cells: Array<{ id: string; cell_type: string; source: string[] }> };
    const sources = nb.cells.map((c) => `${c.cell_type}: ${c.source.join('')}`);
    const call = sources.findIndex((s) => s.startsWith('raw: ') && s.includes('"writer"'));
    const heading = sources.findIndex((s) => s.startsWith('markdown: ### Sub-agent “writer” — finished'));
    const subCell = sources.findIndex((s) => s.startsWith('code: ') && s.includes('echo from-the-sub-agent > sub.txt'));
    const parentCell = sources.findIndex((s) => s.startsWith('code: ') && s.includes('cat sub.txt'));
    expect(call).toBeGreaterThan(-1);
    expect(heading).toBe(call + 1);
    expect(call < heading && heading < subCell && subCell < parentCell).toBe(true);
    expect(sources.some((s) => s.startsWith('markdown: ') && s.includes('WROTE sub.txt'))).toBe(true);

    // Re-run in an empty folder: only the sub-agent's cell, run in order, can make what the parent reads.
    const file = path.join(folder, 'parent.ipynb');
    writeFileSync(file, text);
    const [result] = await rerunNotebooks<{ error: string | null; cells: Record<string, { outputs: Array<{ text?: string }> }> }>({}, [
      [file, folder],
    ]);
    expect(result?.error).toBeNull();
    const catId = nb.cells[parentCell]?.id ?? '';
    expect(result?.cells[catId]?.outputs.map((o) => o.text ?? '').join('')).toBe('from-the-sub-agent\n');

    // Import keeps the cells (as the notebook's own) and leaves the heading out.
    const imported = importNotebook(text, { maxBytes: 10_000_000 });
    expect(imported.warnings).toEqual([]);
    expect(imported.conversationItems.some((i) => i.kind === 'cell' && i.code.includes('echo from-the-sub-agent'))).toBe(true);
    expect(JSON.stringify(imported.conversationItems)).not.toContain('### Sub-agent');
  });
});
