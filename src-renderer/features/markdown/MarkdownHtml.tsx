import { memo, useDeferredValue, useEffect, useMemo, useRef, type MouseEvent } from 'react';
import { bridge } from '../../bridge/bridge';
import { useWorkspace } from '../../state/workspace-store';
import { copyText } from '../common/copy-text';
import { renderMarkdown } from './render-markdown';
import { plainMessage } from '../../state/plain-error';

/**
 * Sanitised markdown (loaded on demand through Markdown.tsx). While text streams in, parsing is deferred
 * so typing and scrolling stay smooth.
 */
export const MarkdownHtml = memo(function MarkdownHtml({ text }: { text: string }) {
  const deferred = useDeferredValue(text);
  const html = useMemo(() => renderMarkdown(deferred), [deferred]);
  const root = useRef<HTMLDivElement>(null);
  const conversationId = useWorkspace((s) => s.conversationId);
  useEffect(() => {
    if (root.current && conversationId) void showWorkspaceImages(root.current, conversationId);
  }, [html, conversationId]);
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const button = (e.target as Element).closest('[data-copy-code]');
    if (!button) return;
    const code = button.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
    void copyText(code).then(() => {
      button.textContent = 'Copied';
      setTimeout(() => (button.textContent = 'Copy'), 1200);
    });
  };
  return <div ref={root} className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * Images that point into the conversation's workspace (a notebook's attachments, written there on
 * import) are read through the bridge and shown as data URLs: the window loads nothing from disk.
 */
async function showWorkspaceImages(root: HTMLElement, conversationId: string): Promise<void> {
  for (const img of root.querySelectorAll<HTMLImageElement>('img[data-workspace-src]')) {
    const path = img.dataset.workspaceSrc;
    if (!path || img.getAttribute('src')) continue;
    try {
      const file = await bridge['workspace.preview']({ conversationId, path });
      if (file.kind === 'image') img.src = `data:${file.mime};base64,${file.dataBase64}`;
      else img.title = `${path} is not an image`;
    } catch (err) {
      img.title = `${path}: ${plainMessage(err)}`;
    }
  }
}
