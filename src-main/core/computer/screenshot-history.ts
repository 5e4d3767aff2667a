import type { ConversationItem } from '@contract';
import type { ImageData } from '../llm/provider';
import { COMPUTER_LANGUAGE } from '../llm/computer-tool';

/**
 * How many of the latest screenshots go back to the model: it acts on the newest and may compare with
 * the one before; each is a thousand tokens or more, so older ones go back as their text line only.
 */
export const SCREENSHOTS_SENT = 3;

/** The latest computer calls' screenshots, by cell id, as the adapters send them. */
export function recentScreenshots(items: readonly ConversationItem[], count = SCREENSHOTS_SENT): Map<string, ImageData> {
  const found = new Map<string, ImageData>();
  for (let i = items.length - 1; i >= 0 && found.size < count; i--) {
    const item = items[i];
    // An action the code asked for is not the model's call: its screenshot goes nowhere with it.
    if (item?.kind !== 'cell' || item.language !== COMPUTER_LANGUAGE || item.fromCell) continue;
    for (const output of item.outputs) {
      const png = output.output_type === 'display_data' ? output.data['image/png'] : undefined;
      if (typeof png === 'string') found.set(item.id, { mime: 'image/png', base64: png });
    }
  }
  return found;
}
