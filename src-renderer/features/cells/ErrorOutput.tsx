import { useMemo } from 'react';
import type { CellOutput } from '@contract';
import { CopyButton } from '../common/CopyButton';
import { ansiToHtml } from './ansi-to-html';

type ErrorShape = Extract<CellOutput, { output_type: 'error' }>;

// ESC [ … letter (CSI) and ESC ] … BEL (OSC): IPython colours its tracebacks; a copy is plain text.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;

/**
 * An exception: its last line ("ZeroDivisionError: division by zero") and, behind "show full
 * traceback", the whole traceback as the language gave it (colours kept), live and imported alike.
 */
export function ErrorOutput({ output }: { output: ErrorShape }) {
  const last = output.evalue ? `${output.ename}: ${output.evalue}` : output.ename;
  const full = output.traceback.join('\n');
  const html = useMemo(() => (full ? ansiToHtml(full).html : ''), [full]);
  return (
    <div className="output-error" role="alert" data-testid="output-error">
      <div className="output-error-body">
        <pre className="output-error-last">{last}</pre>
        {html && (
          <details className="output-traceback" data-testid="traceback">
            <summary>show full traceback</summary>
            <pre dangerouslySetInnerHTML={{ __html: html }} />
          </details>
        )}
      </div>
      <CopyButton text={() => (full ? full.replace(ESCAPES, '') : last)} label="Copy error" className="small ghost" />
    </div>
  );
}
