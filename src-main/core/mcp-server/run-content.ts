import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CellOutput } from '@contract';
import type { RunResult } from '../exec';

// A run as an MCP tool result: the text the app's own model reads (head + tail, keys redacted,
// tracebacks included) and every image the run displayed as MCP image content. A run that did not
// finish well is an error result, so the client's model sees it failed without parsing the text.

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export function runContent(result: RunResult): CallToolResult {
  const images = result.outputs.flatMap(imagesOf);
  const header = result.status === 'done' ? '' : `[${statusLine(result)}]\n`;
  const text = `${header}${result.forModel}`.trimEnd() || '(no output)';
  return {
    content: [{ type: 'text', text }, ...images.map(({ mimeType, data }) => ({ type: 'image' as const, mimeType, data }))],
    ...(result.status === 'done' ? {} : { isError: true }),
  };
}

function statusLine(result: RunResult): string {
  switch (result.status) {
    case 'timeout':
      return `stopped: the run went past its time limit of ${Math.round(result.limits.timeoutMs / 1000)} s`;
    case 'interrupted':
      return 'interrupted';
    case 'died':
      return 'the session died (its process was killed or crashed); the next run starts a new one';
    case 'unavailable':
      return 'this language is not available on this machine';
    default:
      return `failed${result.exitCode !== null ? ` (exit code ${result.exitCode})` : ''}`;
  }
}

function imagesOf(output: CellOutput): { mimeType: string; data: string }[] {
  if (output.output_type !== 'display_data' && output.output_type !== 'execute_result') return [];
  for (const mimeType of IMAGE_TYPES) {
    const data = output.data[mimeType];
    // Jupyter keeps base64 as one string or as lines; MCP wants one string without newlines.
    const text = Array.isArray(data) ? data.join('') : data;
    if (typeof text === 'string' && text.length > 0) return [{ mimeType, data: text.replace(/\s+/g, '') }];
  }
  return [];
}
