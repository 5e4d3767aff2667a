import { create } from 'zustand';
import type { KernelConnectionInfo, KernelSpecInfo } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';

// The open conversation's remote kernel, shared by the top bar button and its panel. Failures stay
// in the panel (`error`), next to the fields the user has to change, not in the window's banner.

interface KernelState {
  /** The conversation `status` belongs to; a reply for another one (switched meanwhile) is dropped. */
  conversationId: string | null;
  status: KernelConnectionInfo | null;
  specs: KernelSpecInfo[] | null;
  defaultSpec: string | null;
  busy: 'listing' | 'connecting' | 'disconnecting' | null;
  error: string | null;
}

interface KernelActions {
  refresh(conversationId: string | null): Promise<void>;
  listSpecs(url: string, token: string): Promise<void>;
  connect(conversationId: string, url: string, token: string, kernelName: string | null): Promise<boolean>;
  disconnect(conversationId: string): Promise<void>;
  clearError(): void;
}

export const useKernels = create<KernelState & KernelActions>((set, get) => {
  const attempt = async <T>(busy: NonNullable<KernelState['busy']>, f: () => Promise<T>): Promise<T | null> => {
    set({ busy, error: null });
    try {
      return await f();
    } catch (err) {
      set({ error: plainMessage(err) });
      return null;
    } finally {
      set({ busy: null });
    }
  };
  // An empty token field means "use the one saved for this server", which main looks up itself.
  const tokenOf = (token: string): { token?: string } => (token.trim() ? { token: token.trim() } : {});

  return {
    conversationId: null,
    status: null,
    specs: null,
    defaultSpec: null,
    busy: null,
    error: null,

    async refresh(conversationId) {
      // Keep showing the old state while asking again about the same conversation (no flicker).
      if (get().conversationId !== conversationId) set({ conversationId, status: null });
      if (!conversationId) return;
      const status = await bridge['kernels.status']({ conversationId }).catch(() => null);
      if (get().conversationId === conversationId) set({ status });
    },
    async listSpecs(url, token) {
      set({ specs: null, defaultSpec: null });
      const found = await attempt('listing', () => bridge['kernels.specs']({ url: url.trim(), ...tokenOf(token) }));
      if (found) set({ specs: found.specs, defaultSpec: found.default });
    },
    async connect(conversationId, url, token, kernelName) {
      const status = await attempt('connecting', () =>
        bridge['kernels.connect']({ conversationId, url: url.trim(), ...tokenOf(token), kernelName }),
      );
      if (status) set({ conversationId, status });
      return status !== null;
    },
    async disconnect(conversationId) {
      const done = await attempt('disconnecting', () => bridge['kernels.disconnect']({ conversationId }));
      if (done) set({ conversationId, status: null });
    },
    clearError: () => set({ error: null }),
  };
});
