// Saves conversations in a tight loop until killed; prints "saved <n>" after each round so the test
// knows writes are under way when it sends SIGKILL. Run: npx tsx --tsconfig tsconfig.node.json save-loop.ts <dataDir>
import { ConversationStore } from '../../../../src-main/core/conversations/conversation-store';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: save-loop.ts <dataDir>');
const store = new ConversationStore(dataDir, () => dataDir);
const convs = await Promise.all([1, 2, 3, 4].map((n) => store.create(`loop ${n}`)));
for (let round = 1; ; round++) {
  await Promise.all(
    convs.map((conv) => {
      // Growing files make each write take longer, so the kill often lands mid-write.
      conv.items.push({
        kind: 'user',
        id: `u${round}`,
        text: `message ${round} ${'x'.repeat(2000)}`,
        attachments: [],
        createdAt: new Date().toISOString(),
      });
      conv.updatedAt = new Date().toISOString();
      return store.save(conv);
    }),
  );
  process.stdout.write(`saved ${round}\n`);
}
