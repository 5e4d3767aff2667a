import { create } from 'zustand';
import { PANEL_SIZES_KEY as KEY, takeStoredPanelSizes } from './stored-panel-sizes';

// Panel sizes survive a reload (localStorage: a per-window preference, not a setting to sync).

export interface PanelSizes {
  sidebar: number;
  rightPanel: number;
  /** Share of the right panel's height the file tree takes (the preview gets the rest). */
  treeShare: number;
  rightOpen: boolean;
}

const DEFAULTS: PanelSizes = { sidebar: 240, rightPanel: 380, treeShare: 0.42, rightOpen: true };
export const LIMITS = { sidebar: [160, 480], rightPanel: [240, 900], treeShare: [0.15, 0.85] } as const;

function load(): PanelSizes {
  try {
    const raw = takeStoredPanelSizes();
    if (!raw) return DEFAULTS;
    const parsed = JSON.parse(raw) as Partial<PanelSizes>;
    return {
      sidebar: clamp(Number(parsed.sidebar ?? DEFAULTS.sidebar), LIMITS.sidebar),
      rightPanel: clamp(Number(parsed.rightPanel ?? DEFAULTS.rightPanel), LIMITS.rightPanel),
      treeShare: clamp(Number(parsed.treeShare ?? DEFAULTS.treeShare), LIMITS.treeShare),
      rightOpen: parsed.rightOpen !== false,
    };
  } catch {
    return DEFAULTS;
  }
}

export function clamp(value: number, [min, max]: readonly [number, number]): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
}

interface PanelActions {
  resize(patch: Partial<PanelSizes>): void;
  /** The top bar's toggle: the column on a wide window, the drawer over the chat on a narrow one. */
  toggleFiles(narrow: boolean): void;
  closeDrawer(): void;
}

interface DrawerState {
  /** The files panel open over the chat (narrow windows); not kept across reloads. */
  drawerOpen: boolean;
}

export const usePanels = create<PanelSizes & DrawerState & PanelActions>((set, get) => ({
  ...load(),
  drawerOpen: false,
  toggleFiles(narrow) {
    if (narrow) set({ drawerOpen: !get().drawerOpen });
    else get().resize({ rightOpen: !get().rightOpen });
  },
  closeDrawer: () => set({ drawerOpen: false }),
  resize(patch) {
    set(patch);
    const { sidebar, rightPanel, treeShare, rightOpen } = get();
    try {
      localStorage.setItem(KEY, JSON.stringify({ sidebar, rightPanel, treeShare, rightOpen }));
    } catch {
      /* storage full or disabled: sizes last for this session */
    }
  },
}));
