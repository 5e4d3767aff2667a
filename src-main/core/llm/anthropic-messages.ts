import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { AssistantItem } from '@contract';
import { toolCallOf } from './execute-tool';
import { cellResultText, fencedResultsText, toHistory } from './history-steps';
import type { ProviderRequest } from './provider';
import { userContent } from './user-content';

/**
 * Redacted thinking has no readable text, only opaque data the API wants back unchanged. Our items
 * keep thinking as {thinking, signature}; real signatures are base64 and never contain ':', so this
 * prefix cannot collide with one.
 */
export const REDACTED_PREFIX = 'redacted:';

type Turn = { role: 'user' | 'assistant'; content: ContentBlockParam[] };

/**
 * The conversation as Anthropic Messages: thinking blocks first and unmodified (the API checks their
 * signatures), tool_use answered by tool_result at the start of the next user message, and roles
 * strictly alternating (consecutive messages of one role are merged).
 */
export function toAnthropicMessages(req: Pick<ProviderRequest, 'items' | 'tools' | 'images' | 'screenshots'>): MessageParam[] {
  const turns: Turn[] = [];
  const push = (role: Turn['role'], content: ContentBlockParam[]) => {
    if (content.length === 0) return;
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else turns.push({ role, content });
  };
  for (const entry of toHistory(req.items, { tools: req.tools.length > 0 })) {
    if (entry.kind === 'user') {
      const { text, images } = userContent(entry.item, req.images);
      const blocks: ContentBlockParam[] = images.map((image) => ({
        type: 'image',
        source: { type: 'base64', media_type: image.mime, data: image.base64 },
      }));
      blocks.push({ type: 'text', text: text || '(empty message)' });
      push('user', blocks);
      continue;
    }
    // A block cut off before its signature arrived (a stopped or broken stream) is kept for the user
    // to read, but the API would refuse it.
    const assistant: ContentBlockParam[] = entry.thinking.filter((block) => block.signature !== '').map(thinkingBlock);
    const text = (entry.fencedCells.length ? entry.transcript : entry.text).trimEnd();
    // The API refuses empty text blocks.
    if (text) assistant.push({ type: 'text', text });
    for (const cell of entry.toolCells) {
      const call = toolCallOf(cell);
      assistant.push({ type: 'tool_use', id: toolUseId(cell.toolCallId ?? cell.id), name: call.name, input: call.input });
    }
    if (assistant.length === 0) continue;
    push('assistant', assistant);
    const results: ContentBlockParam[] = entry.toolCells.map((cell) => {
      // A computer call's screenshot rides in its tool_result, as Anthropic's computer use has it.
      const shot = req.screenshots?.get(cell.id);
      return {
        type: 'tool_result',
        tool_use_id: toolUseId(cell.toolCallId ?? cell.id),
        content: shot
          ? [
              { type: 'text', text: cellResultText(cell) },
              { type: 'image', source: { type: 'base64', media_type: shot.mime, data: shot.base64 } },
            ]
          : cellResultText(cell),
        ...(cell.status === 'done' ? {} : { is_error: true }),
      };
    });
    if (entry.fencedCells.length) results.push({ type: 'text', text: fencedResultsText(entry.fencedCells) });
    push('user', results);
  }
  // The API wants the first message from the user (an imported conversation may start otherwise).
  if (turns[0]?.role === 'assistant')
    turns.unshift({ role: 'user', content: [{ type: 'text', text: '(continuing an earlier conversation)' }] });
  return turns;
}

function thinkingBlock(block: AssistantItem['thinking'][number]): ContentBlockParam {
  if (block.signature.startsWith(REDACTED_PREFIX))
    return { type: 'redacted_thinking', data: block.signature.slice(REDACTED_PREFIX.length) };
  return { type: 'thinking', thinking: block.thinking, signature: block.signature };
}

/** Anthropic accepts tool ids of letters, digits, _ and -; ids from another provider may hold more. */
function toolUseId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200) || 'toolu_unknown';
}
