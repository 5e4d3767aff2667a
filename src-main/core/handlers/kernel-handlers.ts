import type { KernelConnectionInfo } from '@contract';
import type { HandlerTable } from '../bridge/handler-table';
import { Kernels, Languages } from '../exec';
import type { AppContext } from './app-context';

type KernelNames = 'kernels.specs' | 'kernels.connect' | 'kernels.disconnect' | 'kernels.status';

/**
 * Connecting conversations to remote Jupyter kernels. The server is checked (URL, token, kernel)
 * before anything is saved, so a wrong token is reported here, not on the first run.
 */
export const kernelHandlers = (ctx: Pick<AppContext, 'keyVault' | 'kernels'>): Pick<HandlerTable, KernelNames> => {
  const { kernels } = ctx;
  const store = ctx.keyVault.store;
  const savedToken = async (url: string): Promise<string | null> => store.get(Kernels.kernelAccount(url)).catch(() => null);
  const info = (conversationId: string, binding: Kernels.KernelBinding): KernelConnectionInfo => ({
    url: binding.url,
    kernelName: binding.kernelName,
    displayName: binding.displayName,
    language: binding.language,
    kernelId: kernels.kernelIdFor(conversationId),
  });
  return {
    'kernels.specs': async ({ url, token }) => Kernels.listKernelSpecs({ url, token: token ?? (await savedToken(url)) }),

    'kernels.connect': async ({ conversationId, url, token, kernelName }) => {
      const base = Kernels.normalizeServerUrl(url);
      const useToken = token?.trim() ? token.trim() : await savedToken(base);
      const { default: fallback, specs } = await Kernels.listKernelSpecs({ url: base, token: useToken });
      const wanted = kernelName ?? fallback ?? specs[0]?.name;
      const spec = specs.find((s) => s.name === wanted);
      if (!spec) {
        throw new Kernels.RemoteKernelError(
          `The Jupyter server at ${base} has no kernel "${wanted ?? ''}"; it offers: ${specs.map((s) => s.name).join(', ') || 'none'}.`,
        );
      }
      const language = Languages.findLanguage(spec.language);
      if (!language || language.kind === 'html') {
        const known = Languages.LANGUAGES.filter((l) => l.kind !== 'html')
          .map((l) => l.name)
          .join(', ');
        throw new Kernels.RemoteKernelError(
          `The kernel "${spec.displayName}" runs ${spec.language}, which this app does not run yet; it can use remote kernels for: ${known}.`,
        );
      }
      if (token?.trim()) {
        await store.set(Kernels.kernelAccount(base), token.trim());
        // The engine keeps stored secrets out of the code's environment; it must learn this one.
        ctx.keyVault.changed();
      }
      const binding: Kernels.KernelBinding = { url: base, kernelName: spec.name, displayName: spec.displayName, language: language.name };
      kernels.bind(conversationId, binding);
      // Saved in the conversation before answering, so a restart right after still finds it.
      await kernels.saved(conversationId);
      return info(conversationId, binding);
    },

    'kernels.disconnect': async ({ conversationId }) => {
      await kernels.restore(conversationId);
      const had = kernels.binding(conversationId) !== null;
      kernels.unbind(conversationId);
      await kernels.saved(conversationId);
      return { disconnected: had };
    },

    'kernels.status': async ({ conversationId }) => {
      await kernels.restore(conversationId);
      const binding = kernels.binding(conversationId);
      return binding ? info(conversationId, binding) : null;
    },
  };
};
