import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ConversationItem } from '@contract';
import { toolCallOf } from './acp-cells';
import { noticeChunk } from './acp-session';

/** A saved conversation as the updates session/load replays: the person's messages, the model's thinking and words, each cell as a finished tool call. */
export function historyUpdates(items: ConversationItem[], workspace: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const item of items) {
    switch (item.kind) {
      case 'user': {
        const files = item.attachments.map((a) => `\n[attached: ${a.name}]`).join('');
        updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: item.text + files } });
        break;
      }
      case 'assistant':
        for (const block of item.thinking)
          if (block.thinking) updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: block.thinking } });
        if (item.text) updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: item.text } });
        break;
      case 'cell':
        updates.push({ sessionUpdate: 'tool_call', ...toolCallOf(item, workspace) });
        break;
      case 'notice':
        if (item.level !== 'info') updates.push(noticeChunk(item.level, item.text));
        break;
    }
  }
  return updates;
}
