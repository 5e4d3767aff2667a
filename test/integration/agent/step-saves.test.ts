import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry } from '../../../src-main/core/checkpoints/checkpoint-records';
import { applyChange, linesFor, listHash } from '../../../src-main/core/checkpoints/list-journal';
import { applyJournal } from '../../../src-main/core/conversations/conversation-journal';
import { useAgentHarness } from '../../support/use-agent-harness';

// A step's saves go beside other work (issue 37: the reply's save beside the cell's checkpoint, the
// step's last save beside the cell's checkpoint list), never after the point they guard: the model's
// call is on disk before it runs, and what it gave with its checkpoint before the next model call.
// On disk is the conversation's file with its journal (a turn's saves after its first are journalled,
// conversation-journal.ts), as every reader takes it.

const startHarness = useAgentHarness();

const read = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** The checkpoint list as the app reads it: the file with the lines appended against it (checkpoints/list-journal.ts). */
function withLog(list: string, log: string): string {
  if (!list) return '';
  const record = JSON.parse(list) as { entries: CheckpointEntry[] };
  for (const line of linesFor<CheckpointEntry>(log, listHash(list))) record.entries = applyChange(record.entries, line);
  return JSON.stringify(record);
}

describe("a step's saves", () => {
  it('has the reply on disk before its cell runs, and the cell with its checkpoint before the next model call', async () => {
    let id = '';
    const files = () =>
      h
        ? [`conversations/${id}.json`, `checkpoints/${id}.json`, `conversations/${id}.journal`, `checkpoints/${id}.log`].map((f) =>
            path.join(h?.dataDir ?? '', f),
          )
        : [];
    // What the data folder held as each model call arrived (read at once, in the server's handler).
    const atCall: Array<{ conversation: unknown; checkpoints: string }> = [];
    const h = await startHarness({
      settings: { autoRun: true },
      checkpoints: true,
      // Its cell reads this run's data folder: an export re-run elsewhere would not find it.
      rerunExports: false,
      llm: {
        onRequest: (r) => {
          if (r.path !== '/v1/chat/completions' || !id) return;
          const [conversation = '', checkpoints = '', journal = '', checkpointLog = ''] = files().map(read);
          atCall.push({
            conversation: conversation ? applyJournal(JSON.parse(conversation), journal) : {},
            checkpoints: withLog(checkpoints, checkpointLog),
          });
        },
      },
    });
    id = await h.newConversation();
    const [conversationFile = '', checkpointsFile = '', journalFile = ''] = files();
    // The cell looks for its own code in the conversation file or its journal, and for its checkpoint before it.
    const code = [
      'import json, os',
      `saved = open(${JSON.stringify(conversationFile)}).read() + (open(${JSON.stringify(journalFile)}).read() if os.path.exists(${JSON.stringify(journalFile)}) else '')`,
      "print('reply on disk' if 'marker-41' in saved else 'reply missing')",
      `e = json.load(open(${JSON.stringify(checkpointsFile)}))['entries']`,
      "print('checkpoint before', len(e), e[-1]['after'] is None)",
      "open('made.txt', 'w').write('x')  # marker-41",
    ].join('\n');
    h.llm.enqueue({ kind: 'tool', calls: [{ id: 'c1', name: 'execute', arguments: { language: 'python', code } }] });
    h.llm.enqueue({ kind: 'text', text: 'Done.' });
    await h.send(id, 'go');

    const cell = (await h.agent.snapshot(id)).items.find((i) => i.kind === 'cell');
    const printed = cell?.kind === 'cell' ? cell.outputs.map((o) => ('text' in o ? o.text : '')).join('') : '';
    expect(printed).toContain('reply on disk');
    expect(printed).toContain('checkpoint before 1 True');
    // The second call: the file has the cell done with what it printed and what it changed, and the
    // checkpoint list the tree after it.
    expect(atCall).toHaveLength(2);
    const saved = (atCall[1]?.conversation ?? {}) as { items?: Array<Record<string, unknown>> };
    const savedCell = saved.items?.find((i) => i.kind === 'cell');
    expect(savedCell?.status).toBe('done');
    expect(JSON.stringify(savedCell?.outputs)).toContain('reply on disk');
    expect(JSON.stringify(savedCell?.changes)).toContain('made.txt');
    const list = JSON.parse(atCall[1]?.checkpoints ?? '{}') as { entries?: Array<{ after: string | null }> };
    expect(list.entries?.[0]?.after).toMatch(/^[0-9a-f]{40}$/);
  });
});
