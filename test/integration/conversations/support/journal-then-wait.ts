// Adds <n> cells to a new conversation through a journal (whose whole writes are put off for an
// hour), prints "added <n> <id>" once the last add has resolved, then waits to be killed: what a crash
// right after oi mcp answered leaves on disk. With `record`, as an agent turn saves instead: each cell
// saved running, then saved done with its output and the usage grown, through store.save (the journal's
// record()). Run: npx tsx --tsconfig tsconfig.node.json journal-then-wait.ts <dataDir> <n> [record]
import { ConversationJournal } from '../../../../src-main/core/conversations/conversation-journal';
import { ConversationStore } from '../../../../src-main/core/conversations/conversation-store';
import { newCell } from '../../../../src-main/core/conversations/new-cell';

const [dataDir, count, how] = process.argv.slice(2);
if (!dataDir || !count) throw new Error('usage: journal-then-wait.ts <dataDir> <n> [record]');
const store = new ConversationStore(dataDir, () => dataDir);
const conv = await store.create('journalled');
const journal = new ConversationJournal(store, conv, { compactIdleMs: 3_600_000, compactLines: 1_000 });
for (let i = 1; i <= Number(count) && how === 'record'; i++) {
  const cell = newCell({ id: `c${i}`, step: `s${i}`, toolCallId: null, language: 'python', code: `print(${i})`, status: 'running' });
  conv.items.push(cell);
  await store.save(conv);
  cell.status = 'done';
  cell.outputs = [{ output_type: 'stream', name: 'stdout', text: `${i}\n` }];
  conv.usage.inputTokens += 10;
  await store.save(conv);
}
for (let i = 1; i <= Number(count) && how !== 'record'; i++) {
  const cell = newCell({ id: `c${i}`, step: `s${i}`, toolCallId: null, language: 'python', code: `print(${i})`, status: 'done' });
  conv.items.push(cell);
  conv.updatedAt = new Date().toISOString();
  await journal.add(cell);
}
process.stdout.write(`added ${count} ${conv.id}\n`);
setInterval(() => undefined, 60_000);
