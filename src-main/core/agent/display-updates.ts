import type { DisplayUpdate } from '@contract';
import { updatedOutputs } from '@contract/display-updates';
import type { EventBus } from '../bridge/event-bus';
import type { LiveConversation } from './live-conversation';

/**
 * An update of the displays with an id (docs/exec.md#display-updates), for the cells of the open
 * conversation: the earlier cells' saved outputs take it (the running cell's own come with its
 * result), and the page applies it to what it shows. In place: the turn holds the items list.
 */
export function applyDisplayUpdate(live: LiveConversation, update: DisplayUpdate, events: EventBus): void {
  const items = live.conv.items;
  items.forEach((item, index) => {
    if (item.kind !== 'cell') return;
    const outputs = updatedOutputs(item.outputs, update);
    if (outputs !== item.outputs) items[index] = { ...item, outputs };
  });
  events.emit('cell.display-updated', { conversationId: live.conv.id, update });
}
