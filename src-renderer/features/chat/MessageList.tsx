import type { ConversationItem } from '@contract';
import type { ConversationView } from '../../state/conversation-reducer';
import { MessageRow } from './MessageRow';
import { VirtualList } from './VirtualList';

/** Rough heights before measuring: close enough that the scrollbar does not jump much. */
function estimate(item: ConversationItem): number {
  switch (item.kind) {
    case 'user':
      return 48 + Math.min(10, Math.ceil(item.text.length / 90)) * 20;
    case 'assistant':
      return 40 + Math.min(30, Math.ceil(item.text.length / 100)) * 21;
    case 'cell':
      return 130 + Math.min(20, item.code.split('\n').length) * 18 + (item.outputs.length > 0 ? 90 : 0);
    case 'notice':
      return 44;
  }
}

const keyOf = (item: ConversationItem) => item.id;

export function MessageList({ view }: { view: ConversationView }) {
  const items = view.conv.items;
  const lastUserId = lastOfKind(items, 'user');
  return (
    <VirtualList
      className="messages"
      testId="messages"
      label="Conversation"
      items={items}
      keyOf={keyOf}
      estimate={estimate}
      resetKey={view.conv.id}
      render={(item) => (
        <MessageRow
          item={item}
          isLastUser={item.id === lastUserId}
          lastEnd={view.lastEnd}
          isLast={item === items[items.length - 1]}
          busy={view.busy}
        />
      )}
    />
  );
}

function lastOfKind(items: ConversationItem[], kind: ConversationItem['kind']): string | null {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]?.kind === kind) return items[i]?.id ?? null;
  return null;
}
