import { Suspense } from 'react';
import type { FilePreview } from '@contract';
import { useComposer } from '../../state/composer-store';
import { useWorkspace } from '../../state/workspace-store';
import { HighlightedCode } from '../highlight/HighlightedCode';
import { Icon } from '../common/Icon';
import { formatBytes } from '../common/use-now';
import { lazyNamed } from '../common/lazy-named';
import { prettyJson } from './pretty-json';
import { downloadWorkspaceFile } from '../common/download';

// The image viewer, the table (papaparse) and the notebook renderer load the first time one is previewed.
const ImageViewer = lazyNamed(() => import('./ImageViewer'), 'ImageViewer');
const TablePreview = lazyNamed(() => import('./TablePreview'), 'TablePreview');
const NotebookPreview = lazyNamed(() => import('../notebooks/NotebookPreview'), 'NotebookPreview');

/** The selected file (image, text, notebook, or its metadata) or the latest image output. */
export function PreviewPanel() {
  const preview = useWorkspace((s) => s.preview);
  const data = useWorkspace((s) => s.previewData);
  const error = useWorkspace((s) => s.previewError);
  const reveal = useWorkspace((s) => s.reveal);
  const insert = useComposer((s) => s.insert);

  const title = !preview ? 'Preview' : preview.kind === 'file' ? preview.path : preview.title;
  return (
    <section className="preview" aria-label="Preview" data-testid="preview">
      <header className="panel-head">
        <h2 title={title} data-testid="preview-title">
          {title}
        </h2>
        <span className="spacer" />
        {preview?.kind === 'file' && (
          <>
            <button
              className="icon-button"
              aria-label="Insert this path into the message"
              title="Insert path into the message"
              onClick={() => insert(preview.path)}
            >
              <Icon name="insert" size={14} />
            </button>
            <button
              className="icon-button"
              aria-label="Download this file"
              title="Download (save a copy)"
              onClick={() => void downloadWorkspaceFile(preview.path)}
            >
              <Icon name="download" size={14} />
            </button>
            <button
              className="icon-button"
              aria-label="Show in the file manager"
              title="Show in the file manager"
              onClick={() => void reveal(preview.path)}
            >
              <Icon name="external" size={14} />
            </button>
          </>
        )}
      </header>
      <div className="preview-body">
        <Suspense fallback={<p className="muted small pad">Loading…</p>}>
          {!preview && <p className="muted small pad">Click a file to preview it. Plots and images the code makes open here.</p>}
          {preview?.kind === 'output' && <ImageViewer src={`data:${preview.mime};base64,${preview.dataBase64}`} alt={preview.title} />}
          {preview?.kind === 'file' && error && (
            <p className="panel-error" role="alert">
              {error}
            </p>
          )}
          {preview?.kind === 'file' && !error && !data && <p className="muted small pad">Loading…</p>}
          {preview?.kind === 'file' && data && <FileBody data={data} />}
        </Suspense>
      </div>
    </section>
  );
}

function FileBody({ data }: { data: FilePreview }) {
  switch (data.kind) {
    case 'image':
      return <ImageViewer src={`data:${data.mime};base64,${data.dataBase64}`} alt={data.path} />;
    case 'text': {
      if (/\.(csv|tsv|tab)$/i.test(data.path))
        return <TablePreview text={data.text} path={data.path} truncated={data.truncated} size={data.size} />;
      // JSON indented for reading when it parses whole; as it is otherwise.
      const pretty = /\.json$/i.test(data.path) ? prettyJson(data.text, data.truncated) : null;
      return (
        <div className="text-preview">
          <HighlightedCode className="preview-code" code={pretty ?? data.text} language={data.language} testId="preview-text" />
          {pretty !== null && <p className="muted small pad">Indented for reading; the file itself is unchanged.</p>}
          {data.truncated && (
            <p className="muted small pad">
              Showing the first {formatBytes(data.text.length)} of {formatBytes(data.size)}.
            </p>
          )}
        </div>
      );
    }
    case 'notebook':
      return <NotebookPreview source={data.text} />;
    case 'meta':
      return (
        <dl className="meta" data-testid="preview-meta">
          <dt>Path</dt>
          <dd>{data.path}</dd>
          <dt>Type</dt>
          <dd>{data.mime}</dd>
          <dt>Size</dt>
          <dd>{formatBytes(data.size)}</dd>
          <dt>Modified</dt>
          <dd>{new Date(data.mtimeMs).toLocaleString()}</dd>
          <dt>Not shown</dt>
          <dd>{data.reason}</dd>
        </dl>
      );
  }
}
