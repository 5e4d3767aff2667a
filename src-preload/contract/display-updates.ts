import type { CellOutput, ConversationItem, DisplayUpdate } from './model';

// A display with an id (IPython's display(…, display_id=…)) shows the last data sent for that id,
// wherever it is in the conversation: the cell that made it or an earlier one, as Jupyter front ends
// apply update_display_data. One rule for main (the saved conversation) and the renderer (what the
// page shows); a module without zod, so the page's first chunk can take it.

/** The outputs with every display of that id updated, or the same array when none has it. */
export function updatedOutputs(outputs: CellOutput[], update: DisplayUpdate): CellOutput[] {
  if (!outputs.some((o) => o.output_type === 'display_data' && o.displayId === update.displayId)) return outputs;
  return outputs.map((o) =>
    o.output_type === 'display_data' && o.displayId === update.displayId ? { ...o, data: update.data, metadata: update.metadata } : o,
  );
}

/** The items with every cell's displays of that id updated; unchanged items stay the same objects. */
export function itemsWithDisplayUpdate(items: ConversationItem[], update: DisplayUpdate): ConversationItem[] {
  return items.map((item) => {
    if (item.kind !== 'cell') return item;
    const outputs = updatedOutputs(item.outputs, update);
    return outputs === item.outputs ? item : { ...item, outputs };
  });
}
