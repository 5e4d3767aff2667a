import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

/** The composer's switch: computer use on or off for this conversation (main refuses, saying why, where it cannot work). */
export async function setComputerUse(on: boolean): Promise<void> {
  const app = useApp.getState();
  try {
    // Before the first message too: the conversation is made so the choice has somewhere to be saved.
    const conversationId = await app.ensureConversation();
    await bridge['conversation.set-computer-use']({ conversationId, on });
  } catch (err) {
    app.reportError(err);
  }
}
