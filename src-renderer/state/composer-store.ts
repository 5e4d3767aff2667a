import { create } from 'zustand';
import type { Attachment } from '@contract';

/** An attachment chip: uploading, ready (in the workspace), or failed with the reason. */
export interface AttachmentChip {
  key: string;
  name: string;
  size: number;
  mime: string;
  /** An object URL of the local file, for image thumbnails (revoked when the chip goes). */
  thumbnail: string | null;
  state: 'uploading' | 'ready' | 'failed';
  attachment: Attachment | null;
  error: string | null;
}

interface ComposerState {
  /** Text to put into the message box at the caret (from "Insert path"); consumed by the composer. */
  insertion: { text: string; seq: number } | null;
  chips: AttachmentChip[];
  /** Focus requests for the message box and the conversation search (keyboard shortcuts). */
  focusSeq: { composer: number; search: number };
}

interface ComposerActions {
  insert(text: string): void;
  addChip(chip: AttachmentChip): void;
  updateChip(key: string, patch: Partial<AttachmentChip>): void;
  removeChip(key: string): void;
  /** The chips that reached the workspace; the composer sends them and clears them. */
  takeReady(): Attachment[];
  focusComposer(): void;
  focusSearch(): void;
}

export const useComposer = create<ComposerState & ComposerActions>((set, get) => ({
  insertion: null,
  chips: [],
  focusSeq: { composer: 0, search: 0 },
  insert: (text) => set({ insertion: { text, seq: (get().insertion?.seq ?? 0) + 1 } }),
  addChip: (chip) => set({ chips: [...get().chips, chip] }),
  updateChip: (key, patch) => set({ chips: get().chips.map((c) => (c.key === key ? { ...c, ...patch } : c)) }),
  removeChip(key) {
    const chip = get().chips.find((c) => c.key === key);
    if (chip?.thumbnail) URL.revokeObjectURL(chip.thumbnail);
    set({ chips: get().chips.filter((c) => c.key !== key) });
  },
  takeReady() {
    const ready = get().chips.filter((c) => c.state === 'ready' && c.attachment);
    for (const c of ready) if (c.thumbnail) URL.revokeObjectURL(c.thumbnail);
    set({ chips: get().chips.filter((c) => !ready.includes(c)) });
    return ready.map((c) => c.attachment as Attachment);
  },
  focusComposer: () => set({ focusSeq: { ...get().focusSeq, composer: get().focusSeq.composer + 1 } }),
  focusSearch: () => set({ focusSeq: { ...get().focusSeq, search: get().focusSeq.search + 1 } }),
}));
