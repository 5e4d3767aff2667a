import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

// Plan mode's requests from the page (docs/ui.md#plan-mode): the composer's switch and `/plan`, and the
// plan card's answer. A failure shows in the app's error banner, like other requests.

/** `/plan`, `/plan on`, `/plan off` typed in the composer: the mode it asks for, or null for any other text. */
export function planCommand(text: string, current: boolean): boolean | null {
  const m = /^\/plan(?:\s+(on|off))?\s*$/i.exec(text.trim());
  if (!m) return null;
  return m[1] ? m[1].toLowerCase() === 'on' : !current;
}

export async function setPlanMode(planMode: boolean): Promise<void> {
  const app = useApp.getState();
  try {
    // Before the first message too: the conversation is made so the mode has somewhere to be saved.
    const conversationId = await app.ensureConversation();
    await bridge['conversation.set-plan-mode']({ conversationId, planMode });
  } catch (err) {
    app.reportError(err);
  }
}

export async function answerPlan(cellId: string, answer: { approve: boolean; steps?: string[]; reason?: string }): Promise<void> {
  const app = useApp.getState();
  const conversationId = app.current?.conv.id;
  if (!conversationId) return;
  try {
    await bridge['plan.answer']({ conversationId, cellId, ...answer });
  } catch (err) {
    app.reportError(err);
  }
}
