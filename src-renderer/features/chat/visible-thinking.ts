import type { AssistantItem } from '@contract';

/** Blocks with readable text; redacted thinking (opaque data, no text) is kept for the API but never shown. */
export function visibleThinking(blocks: AssistantItem['thinking']): string[] {
  return blocks.flatMap((block) => (block.thinking.trim() === '' ? [] : [block.thinking]));
}
