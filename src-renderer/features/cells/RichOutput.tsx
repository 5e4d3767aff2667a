import type { CellOutput } from '@contract';
import { mcpUiOf } from '@contract/mcp-ui-output';
import { imageOf } from '../../state/event-wiring';
import { useWorkspace } from '../../state/workspace-store';
import { Markdown } from '../markdown/Markdown';
import { McpUiOutput } from './McpUiOutput';
import { ErrorOutput } from './ErrorOutput';
import { HtmlOutputFrame } from './HtmlOutputFrame';

/**
 * Rich outputs: images inline (click to open in the preview); HTML in the isolated output frame, where
 * its scripts run without any access to the app; markdown rendered; errors with their traceback folded.
 */
export function RichOutput({ output, cellId, scripts = true }: { output: CellOutput; cellId: string; scripts?: boolean }) {
  const showPreview = useWorkspace((s) => s.showPreview);
  if (output.output_type === 'stream') return null;
  if (output.output_type === 'error') return <ErrorOutput output={output} />;
  const image = imageOf(output);
  if (image) {
    const src = `data:${image.mime};base64,${image.dataBase64}`;
    return (
      <button
        className="output-image-button"
        title="Open in the preview"
        onClick={() => void showPreview({ kind: 'output', cellId, title: 'Image output', ...image })}
      >
        <img className="output-image" alt="image output" data-testid="output-image" src={src} />
      </button>
    );
  }
  const html = output.data['text/html'];
  if (typeof html === 'string' || Array.isArray(html)) {
    const ui = mcpUiOf(output);
    if (ui) return <McpUiOutput html={Array.isArray(html) ? html.join('') : html} ui={ui} scripts={scripts} />;
    return (
      <HtmlOutputFrame
        html={Array.isArray(html) ? html.join('') : html}
        scripts={scripts}
        blockedNote="Scripts in outputs imported from a notebook do not run; run the cell again to see them."
      />
    );
  }
  // Markdown (IPython's Markdown(), a notebook's markdown output) renders as markdown, through the
  // chat's sanitiser and inside the same contained block (.markdown: nothing drawn outside it).
  const markdown = output.data['text/markdown'];
  if (typeof markdown === 'string' || Array.isArray(markdown)) {
    return (
      <div className="output-markdown" data-testid="output-markdown">
        <Markdown text={Array.isArray(markdown) ? markdown.join('') : markdown} />
      </div>
    );
  }
  const svg = output.data['image/svg+xml'];
  if (typeof svg === 'string') {
    return <img className="output-image" alt="SVG output" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} />;
  }
  const text = output.data['text/plain'];
  if (typeof text === 'string' || Array.isArray(text))
    return <pre className="output-text">{Array.isArray(text) ? text.join('') : text}</pre>;
  return <pre className="output-text muted">{`[${Object.keys(output.data).join(', ')}]`}</pre>;
}
