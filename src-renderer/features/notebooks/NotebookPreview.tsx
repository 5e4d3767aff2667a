import { useMemo, useState } from 'react';
import { HtmlOutputFrame } from '../cells/HtmlOutputFrame';
import { Markdown } from '../markdown/Markdown';
import { HighlightedCode } from '../highlight/HighlightedCode';
import { joined, readNotebook, withAttachmentUrls, type JsonObject, type PreviewCell, type PreviewOutput } from './notebook-view-model';
import './notebooks.css';

// A read-only rendering of an .ipynb, as Jupyter would show it: markdown rendered (with its attached
// images), code highlighted with In/Out prompts, and every saved output. HTML renders in the isolated
// output frame (its scripts run, with no access to the app); images and SVG are <img>, which runs nothing.

/** Cells rendered at first; a 10,000-cell notebook shows the rest on request rather than all at once. */
const FIRST_CELLS = 300;

export function NotebookPreview({ source }: { source: string }) {
  const read = useMemo(() => readNotebook(source), [source]);
  const [shown, setShown] = useState(FIRST_CELLS);
  if ('error' in read) {
    return (
      <p className="panel-error" role="alert">
        {read.error}
      </p>
    );
  }
  const { notebook } = read;
  return (
    <div className="nb-preview" data-testid="notebook-preview">
      <p className="muted small nb-preview-head">
        Notebook (read-only) · nbformat {notebook.version} · {notebook.cells.length} cells{notebook.kernel ? ` · ${notebook.kernel}` : ''}
      </p>
      {notebook.cells.slice(0, shown).map((cell, i) => (
        <NotebookCell key={i} cell={cell} />
      ))}
      {notebook.cells.length > shown && (
        <button className="small" onClick={() => setShown(shown + FIRST_CELLS)}>
          Show {Math.min(FIRST_CELLS, notebook.cells.length - shown)} more cells ({notebook.cells.length - shown} not shown)
        </button>
      )}
    </div>
  );
}

function NotebookCell({ cell }: { cell: PreviewCell }) {
  switch (cell.kind) {
    case 'markdown':
      return (
        <div className="nb-preview-cell nb-preview-markdown" data-testid="nb-cell" data-cell-type="markdown">
          <Markdown text={withAttachmentUrls(cell.source, cell.attachments)} />
        </div>
      );
    case 'raw':
      return (
        <pre className="nb-preview-cell nb-preview-raw" data-testid="nb-cell" data-cell-type="raw">
          {cell.source}
        </pre>
      );
    case 'code':
      return (
        <div className="nb-preview-cell nb-preview-code" data-testid="nb-cell" data-cell-type="code">
          <div className="nb-preview-in">
            <span className="nb-preview-prompt">In [{cell.count ?? ' '}]:</span>
            <HighlightedCode className="nb-preview-source" code={cell.source} language={cell.language} />
          </div>
          {cell.outputs.map((o, i) => (
            <Output key={i} output={o} />
          ))}
        </div>
      );
  }
}

function Output({ output }: { output: PreviewOutput }) {
  if (output.kind === 'stream')
    return <pre className={`nb-preview-stream${output.name === 'stderr' ? ' nb-preview-stderr' : ''}`}>{output.text}</pre>;
  if (output.kind === 'error') {
    return (
      <details className="nb-preview-error">
        <summary>
          {output.ename}: {output.evalue}
        </summary>
        <pre>{output.traceback}</pre>
      </details>
    );
  }
  return (
    <div className="nb-preview-out">
      {output.prompt !== null && <span className="nb-preview-prompt">Out[{output.prompt}]:</span>}
      <RichData data={output.data} />
    </div>
  );
}

/** The richest MIME type Jupyter would pick from the bundle. */
function RichData({ data }: { data: JsonObject }) {
  for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
    const b64 = joined(data[mime]).replace(/\s+/g, '');
    if (b64) return <img className="nb-preview-image" alt={`${mime} output`} data-testid="nb-image" src={`data:${mime};base64,${b64}`} />;
  }
  const svg = joined(data['image/svg+xml']);
  if (svg)
    return (
      <img
        className="nb-preview-image"
        alt="SVG output"
        data-testid="nb-image"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      />
    );
  const html = joined(data['text/html']);
  // A file from the workspace, not a run in this app: shown like an untrusted notebook in Jupyter.
  if (html) return <HtmlOutputFrame html={html} scripts={false} />;
  const markdown = joined(data['text/markdown']);
  if (markdown) return <Markdown text={markdown} />;
  const json = data['application/json'];
  if (json !== undefined) return <pre className="nb-preview-stream">{JSON.stringify(json, null, 2)}</pre>;
  const text = joined(data['text/plain']) || joined(data['text/latex']);
  return <pre className="nb-preview-stream">{text || `[${Object.keys(data).join(', ')}]`}</pre>;
}
