import type { AgentHarness } from './agent-harness';

/**
 * A turn whose model runs `code` in a Python cell (`computer.*` in code, docs/computer-use.md#in-code),
 * auto-run on and computer use as given, while the person at the screen answers each action asked of
 * them with "allow for this task". Resolves with the conversation's id once the turn has ended.
 */
export async function runComputerCode(
  harness: AgentHarness,
  code: string,
  opts: { computerUse: boolean; prompt: string },
): Promise<string> {
  harness.llm.enqueue(
    { kind: 'tool', calls: [{ name: 'execute', arguments: { language: 'python', code } }] },
    { kind: 'text', text: 'Done.' },
  );
  const id = await harness.newConversation();
  await harness.agent.update(id, (conv) => {
    conv.autoRun = true;
    conv.computerUse = opts.computerUse;
  });
  const answered = new Set<string>();
  harness.bus.subscribe((event) => {
    if (event.name !== 'cell.awaiting-approval') return;
    const { conversationId, cell } = event.payload;
    if (conversationId !== id || answered.has(cell.id)) return;
    answered.add(cell.id);
    queueMicrotask(() => harness.agent.approve(id, cell.id, null, true));
  });
  await harness.send(id, opts.prompt);
  return id;
}
