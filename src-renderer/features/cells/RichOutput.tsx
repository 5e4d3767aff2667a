import type { CellOutput } from '@contract';

/** Rich outputs: images inline; HTML in a sandboxed frame that cannot reach the app; text as text. */
export function RichOutput({ output }: { output: CellOutput }) {
  if (output.output_type === 'stream') return null;
  if (output.output_type === 'error') {
    return <pre className="output-error">{`${output.ename}: ${output.evalue}`}</pre>;
  }
  const data = output.data;
  const png = data['image/png'];
  if (typeof png === 'string') return <img className="output-image" alt="image output" src={`data:image/png;base64,${png.trim()}`} />;
  const jpeg = data['image/jpeg'];
  if (typeof jpeg === 'string') return <img className="output-image" alt="image output" src={`data:image/jpeg;base64,${jpeg.trim()}`} />;
  const html = data['text/html'];
  if (typeof html === 'string') {
    // No allow-same-origin: the frame's scripts (if any) run in an opaque origin with no bridge access.
    return <iframe className="output-html" title="HTML output" sandbox="allow-scripts" srcDoc={html} />;
  }
  const text = data['text/plain'];
  if (typeof text === 'string') return <pre className="output-text">{text}</pre>;
  return <pre className="output-text">{`[${Object.keys(data).join(', ')}]`}</pre>;
}
