import type { CellItem } from '@contract';
import type { CodeCellMeta } from './app-metadata';
import { splitLines } from './multiline';
import { COMPUTER_LANGUAGE } from '../llm/computer-tool';
import type { AttachmentsV4, MarkdownCellV4 } from './nbformat-schema';

// An MCP tool call is not code Jupyter can run, so a notebook gets it as a markdown cell that shows the
// call (server, tool, JSON arguments) and its result (text in a fence, images as cell attachments).
// The app's metadata keeps the arguments and the outputs, so import rebuilds the same cell.

/** The call as markdown; `oi` is the metadata a code cell would have, plus the outputs. */
export function mcpCallCell(item: CellItem, oi: CodeCellMeta): Omit<MarkdownCellV4, 'id'> {
  // The real names when the cell has them (the language holds them sanitised for the model).
  const [server, tool] = item.mcp ? [item.mcp.server, item.mcp.tool] : item.language.slice('mcp:'.length).split('/');
  const seconds = item.durationMs !== null ? ` in ${(item.durationMs / 1000).toFixed(1)} s` : '';
  // A computer action (docs/computer-use.md) is shown the same way: its arguments, its screenshot.
  const computer = item.language === COMPUTER_LANGUAGE;
  const lines = [
    computer
      ? `**Computer use** · ${item.status}${seconds}`
      : `**MCP call** · server \`${server ?? ''}\` · tool \`${tool ?? ''}\` · ${item.status}${seconds}`,
    '',
    fenced(item.code, 'json'),
  ];
  const attachments: AttachmentsV4 = {};
  const text: string[] = [];
  for (const output of item.outputs) {
    if (output.output_type === 'stream') text.push(output.text);
    else if (output.output_type === 'error') text.push(`${output.ename}: ${output.evalue}\n`);
    else if (output.output_type === 'display_data' || output.output_type === 'execute_result') {
      const image = Object.keys(output.data).find((mime) => mime.startsWith('image/') && mime !== 'image/svg+xml');
      const data = image ? output.data[image] : undefined;
      if (image && typeof data === 'string') {
        const name = `${computer ? 'screenshot' : 'mcp-image'}-${Object.keys(attachments).length + 1}.${image.slice('image/'.length).replace(/[^a-z0-9]/g, '')}`;
        attachments[name] = { [image]: data };
        text.push(`\u0000${name}`);
      } else if (typeof output.data['text/plain'] === 'string') text.push(`${output.data['text/plain']}\n`);
    }
  }
  if (text.length > 0) {
    lines.push('', computer ? 'Result:' : 'Result (data from the server):', '');
    let run = '';
    const flush = () => {
      if (run) lines.push(fenced(run.replace(/\n$/, ''), 'text'), '');
      run = '';
    };
    for (const part of text) {
      if (part.startsWith('\u0000')) {
        flush();
        lines.push(`![${part.slice(1)}](attachment:${part.slice(1)})`, '');
      } else run += part;
    }
    flush();
  }
  const source = lines.join('\n').replace(/\n+$/, '');
  const cell: Omit<MarkdownCellV4, 'id'> = {
    cell_type: 'markdown',
    metadata: { oi: { ...oi, code: item.code, mcpOutputs: item.outputs, ...(item.mcp ? { mcp: item.mcp } : {}) } },
    source: splitLines(source),
  };
  if (Object.keys(attachments).length > 0) cell.attachments = attachments;
  return cell;
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenced(text: string, info: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}
