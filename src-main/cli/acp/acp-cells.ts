import path from 'node:path';
import type { ContentBlock, ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus } from '@agentclientprotocol/sdk';
import type { CellItem, CellOutput, CellStatus } from '@contract';
import { plainLine } from '../screen-output';

// A cell as an ACP tool call: kind "execute", its code and its output as content. ACP replaces a
// tool call's whole content with each update, so the output sent is bounded (its tail, like the
// terminal's last lines) rather than growing with every chunk a long run prints.

/** The most output text one update carries; the whole output stays in the conversation (desktop app, notebook export). */
export const OUTPUT_TAIL_CHARS = 64_000;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const text = (t: string): ToolCallContent => ({ type: 'content', content: { type: 'text', text: t } });

export function titleOf(cell: Pick<CellItem, 'language' | 'code'>): string {
  const first = cell.code.split('\n').find((line) => line.trim()) ?? '';
  const shown = first.length > 80 ? `${first.slice(0, 79)}…` : first;
  return shown ? `${cell.language}: ${shown.trim()}` : `Run ${cell.language}`;
}

export function codeContent(language: string, code: string): ToolCallContent {
  return text(`\`\`\`${language}\n${code}\n\`\`\``);
}

export function statusOf(status: CellStatus): ToolCallStatus {
  if (status === 'done') return 'completed';
  if (status === 'running') return 'in_progress';
  if (status === 'streaming' || status === 'awaiting-approval') return 'pending';
  return 'failed';
}

/** The tool call a cell first appears as (while the model writes it, or when a saved conversation is replayed). */
export function toolCallOf(cell: CellItem, workspace: string): ToolCall {
  return {
    toolCallId: cell.id,
    title: titleOf(cell),
    kind: 'execute',
    status: statusOf(cell.status),
    content: cellContent(cell),
    locations: locationsOf(cell, workspace),
    rawInput: { language: cell.language, code: cell.code },
  };
}

/** The files the run created or changed, from its checkpoints (docs/checkpoints.md), for the editor to follow. */
export function locationsOf(cell: CellItem, workspace: string): ToolCallLocation[] {
  return (cell.changes?.files ?? []).filter((f) => f.change !== 'deleted').map((f) => ({ path: path.join(workspace, f.path) }));
}

/** The code, then what the run printed (plain text as a terminal would leave it), then its images. */
export function cellContent(cell: CellItem, liveOutput?: string): ToolCallContent[] {
  const content = [codeContent(cell.language, cell.code)];
  const printed = liveOutput ?? outputText(cell.outputs);
  if (printed) content.push(text(printed));
  for (const output of cell.outputs) {
    const image = imageOf(output);
    if (image) content.push({ type: 'content', content: image });
  }
  const files = cell.changes?.files ?? [];
  if (files.length) content.push(text(`Files: ${files.map((f) => `${f.change} ${f.path}`).join(', ')}`));
  const said = statusNote(cell);
  if (said) content.push(text(said));
  return content;
}

/** Terminal bytes as plain text, bounded to their tail. */
export function plainTail(raw: string): string {
  const cut = raw.length > OUTPUT_TAIL_CHARS ? raw.slice(raw.length - OUTPUT_TAIL_CHARS) : raw;
  const plain = cut
    .split(/(?<=\n)/)
    .map(plainLine)
    .join('');
  return cut === raw ? plain : `… ${raw.length - cut.length} characters earlier not shown\n${plain}`;
}

function outputText(outputs: CellOutput[]): string {
  const parts: string[] = [];
  for (const output of outputs) {
    if (output.output_type === 'stream') parts.push(output.text);
    else if (output.output_type === 'error') parts.push(`${output.ename}: ${output.evalue}\n`);
    else {
      const plain = output.data['text/plain'];
      if (typeof plain === 'string' && !imageOf(output)) parts.push(plain.endsWith('\n') ? plain : `${plain}\n`);
    }
  }
  return plainTail(parts.join(''));
}

function imageOf(output: CellOutput): ContentBlock | null {
  if (output.output_type !== 'display_data' && output.output_type !== 'execute_result') return null;
  const mimeType = IMAGE_TYPES.find((type) => typeof output.data[type] === 'string');
  if (!mimeType) return null;
  return { type: 'image', mimeType, data: (output.data[mimeType] as string).replace(/\s+/g, '') };
}

/** Said for a cell that did not simply run: why, in the words the desktop app's cell uses. */
function statusNote(cell: CellItem): string | null {
  switch (cell.status) {
    case 'skipped':
      return 'Not run: declined.';
    case 'timeout':
      return 'Stopped: the run reached its time limit.';
    case 'interrupted':
      return 'Stopped.';
    case 'died':
      return 'The language process died (crash, kill or out of memory).';
    case 'unavailable':
      return `Not run: ${cell.language} is not available on this machine.`;
    case 'failed':
      return cell.exitCode !== null ? `Exit code ${cell.exitCode}.` : null;
    default:
      return null;
  }
}
