import type { Conversation, NotebookOrigin } from '@contract';
import { APP_KEY } from './app-metadata';
import { canonicalLanguage, kernelFor } from './languages';
import type { NotebookV4 } from './nbformat-schema';

// The notebook-level metadata of an export and the kernel it gets (moved out of ipynb-export.ts, which
// keeps the cells).

export function notebookMetadata(
  conv: Conversation,
  meta: { appVersion: string; provider: string; model: string },
  language: string,
  keepKernel: boolean,
): NotebookV4['metadata'] {
  const origin: NotebookOrigin | undefined = conv.notebook;
  const app = { appVersion: meta.appVersion, provider: meta.provider, model: meta.model, conversationId: conv.id };
  if (!origin) {
    const kernel = kernelFor(language);
    return { kernelspec: kernel.kernelspec, language_info: kernel.language_info, title: conv.title, [APP_KEY]: app };
  }
  const metadata: NotebookV4['metadata'] = { ...origin.metadata };
  if (!keepKernel) {
    const kernel = kernelFor(language);
    metadata.kernelspec = kernel.kernelspec;
    metadata.language_info = kernel.language_info;
  }
  if (conv.title !== origin.title || 'title' in origin.metadata) metadata.title = conv.title;
  // The app's own key only where the app wrote something: its own notebook, or cells added here.
  if (origin.fromApp || conv.items.some((item) => item.jupyter?.cellType === undefined)) metadata[APP_KEY] = app;
  return metadata;
}

/**
 * The kernel a conversation's notebook gets: Python (ipykernel, which every Jupyter has) when its
 * cells are mostly Python or shell — shell cells run as %%bash / %%script zsh with their session's
 * directory and variables (live-session-export.ts), so the notebook re-runs under a plain Jupyter;
 * a bash or zsh kernel would need one installed. Other main languages get their own kernel.
 */
export function kernelLanguageFor(main: string): string {
  return main === 'shell' || main === 'zsh' ? 'python' : main;
}

/** The language of a notebook's kernel in the app's names (Python when it does not say). */
export function kernelLanguageOf(metadata: Record<string, unknown>): string {
  const info = metadata.language_info as { name?: unknown } | undefined;
  const spec = metadata.kernelspec as { language?: unknown } | undefined;
  const name =
    typeof info?.name === 'string' && info.name
      ? info.name
      : typeof spec?.language === 'string' && spec.language
        ? spec.language
        : 'python';
  return canonicalLanguage(name);
}
