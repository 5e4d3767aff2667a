// Adds <n> cells to a new conversation through a journal (whose whole writes are put off for an
// hour), prints "added <n> <id>" once the last add has resolved, then waits to be killed: what a crash
// right after oi mcp answered leaves on disk. Run: npx tsx --tsconfig tsconfig.node.json journal-then-wait.ts <dataDir> <n>
import { ConversationJournal } from '../../../../src-main/core/conversations/conversation-journal';
import { ConversationStore } from '../../../../src-main/core/conversations/conversation-store';
import { newCell } from '../../../../src-main/core/conversations/new-cell';

const [dataDir, count] = process.argv.slice(2);
if (!dataDir || !count) throw new Error('usage: journal-then-wait.ts <dataDir> <n>');
const store = new ConversationStore(dataDir, () => dataDir);
const conv = await store.create('journalled');
const journal = new ConversationJournal(store, conv, { compactIdleMs: 3_600_000 });
for (let i = 1; i <= Number(count); i++) {
  const cell = newCell({ id: `c${i}`, step: `s${i}`, toolCallId: null, language: 'python', code: `print(${i})`, status: 'done' });
  conv.items.push(cell);
  conv.updatedAt = new Date().toISOString();
  await journal.add(cell);
}
process.stdout.write(`added ${count} ${conv.id}\n`);
setInterval(() => undefined, 60_000);
