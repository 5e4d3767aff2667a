import { create } from 'zustand';
import type { McpImportSource, McpServerStatus, McpToolPolicy, RequestInput } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

// The Settings page's MCP servers: their state from main (mcp.status, refreshed on `mcp.changed`),
// and the changes made there. Errors stay in the section, next to what the user has to change.

interface McpState {
  servers: McpServerStatus[] | null;
  sources: McpImportSource[] | null;
  error: string | null;
}

interface McpActions {
  refresh(): Promise<void>;
  listSources(): Promise<void>;
  /** Resolves to null when saved, else to why not (nothing was saved). */
  save(input: RequestInput<'mcp.save'>): Promise<string | null>;
  remove(name: string): Promise<void>;
  setEnabled(name: string, enabled: boolean): Promise<void>;
  connect(name: string): Promise<void>;
  setToolPolicy(server: string, tool: string, policy: McpToolPolicy): Promise<void>;
  /** Resolves to a summary, or throws why nothing was imported. */
  importFile(path: string, replace: boolean): Promise<string>;
}

/** main changed settings.mcpServers: the app's copy of the settings follows. */
async function settingsChanged(): Promise<void> {
  useApp.setState({ settings: await bridge['settings.get']({}) });
}

export const useMcp = create<McpState & McpActions>((set, get) => {
  const act = async (f: () => Promise<unknown>): Promise<void> => {
    set({ error: null });
    try {
      await f();
    } catch (err) {
      set({ error: plainMessage(err) });
    }
    await settingsChanged().catch(() => undefined);
    await get().refresh();
  };
  return {
    servers: null,
    sources: null,
    error: null,
    async refresh() {
      try {
        set({ servers: await bridge['mcp.status']({}) });
      } catch (err) {
        set({ error: plainMessage(err) });
      }
    },
    async listSources() {
      try {
        set({ sources: await bridge['mcp.import-sources']({}) });
      } catch (err) {
        set({ error: plainMessage(err) });
      }
    },
    async save(input) {
      try {
        await bridge['mcp.save'](input);
      } catch (err) {
        return plainMessage(err);
      }
      await settingsChanged().catch(() => undefined);
      await get().refresh();
      return null;
    },
    remove: (name) => act(() => bridge['mcp.remove']({ name })),
    setEnabled: (name, enabled) => act(() => bridge['mcp.set-enabled']({ name, enabled })),
    connect: (name) => act(() => bridge['mcp.connect']({ name })),
    setToolPolicy: (server, tool, policy) => act(() => bridge['mcp.set-tool-policy']({ server, tool, policy })),
    async importFile(path, replace) {
      const result = await bridge['mcp.import']({ path, replace });
      await settingsChanged().catch(() => undefined);
      await get().refresh();
      const parts = [
        result.added.length ? `Added ${result.added.join(', ')}.` : '',
        result.replaced.length ? `Replaced ${result.replaced.join(', ')}.` : '',
      ];
      if (result.toKeychain.length) parts.push(`Kept in the keychain, not in settings: ${result.toKeychain.join('; ')}.`);
      return parts.filter(Boolean).join(' ');
    },
  };
});

/** Follows main's `mcp.changed` while the section is shown; returns the unsubscribe. */
export function watchMcp(): () => void {
  return bridge.on('mcp.changed', () => void useMcp.getState().refresh());
}
