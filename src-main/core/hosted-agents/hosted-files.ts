import { isAbsolute, relative, sep } from 'node:path';
import { RequestError, type ReadTextFileRequest, type WriteTextFileRequest } from '@agentclientprotocol/sdk';
import { errorMessage, type Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import { checkpointAfter, checkpointBefore } from '../agent/cell-checkpoints';
import { now } from '../agent/ids';
import type { LiveConversation } from '../agent/live-conversation';
import { finishCell } from '../agent/turn-cell';
import { READ_LIMIT_BYTES } from '../mcp-server/file-tools';
import { writeWorkspaceText } from '../mcp-server/workspace-write';
import { looksBinary } from '../workspace/file-types';
import { openWorkspaceFile } from '../workspace/open-workspace-file';
import { addAgentCell, type ChangeGate } from './hosted-record';

// A hosted agent's fs/read_text_file and fs/write_text_file (docs/acp.md#hosting): through the file
// panel's no-follow helpers, so `..`, a path outside the conversation's folder and a link leading out
// are refused; each write is a cell of its own between two checkpoints, so it shows what it changed
// and the person can rewind it like any cell.

export interface HostedFileDeps {
  events: EventBus;
  checkpoints?: CheckpointService;
  settings: () => Settings;
}

/** The workspace-relative form of the absolute path ACP gives; a path outside the workspace is refused. */
export function workspacePath(workspace: string, path: string): string {
  if (!isAbsolute(path)) throw RequestError.invalidParams({ path }, `"${path}" is not an absolute path (ACP paths are absolute)`);
  const rel = relative(workspace, path);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))
    throw RequestError.invalidParams({ path }, `"${path}" is outside this conversation's folder (${workspace}): refused`);
  return rel.split(sep).join('/');
}

export async function readHostedFile(live: LiveConversation, params: ReadTextFileRequest): Promise<{ content: string }> {
  const rel = workspacePath(live.conv.workspace, params.path);
  let file;
  try {
    file = await openWorkspaceFile(live.conv.workspace, rel);
  } catch (err) {
    throw RequestError.resourceNotFound(`${params.path}: ${errorMessage(err)}`);
  }
  try {
    if (file.size > READ_LIMIT_BYTES)
      throw RequestError.invalidParams(
        { path: params.path },
        `"${rel}" is ${file.size} bytes, more than an agent may read at once (${READ_LIMIT_BYTES})`,
      );
    const bytes = new Uint8Array(file.size);
    const { bytesRead } = await file.handle.read(bytes, 0, file.size, 0);
    const data = bytes.subarray(0, bytesRead);
    if (looksBinary(data.subarray(0, 8192))) throw RequestError.invalidParams({ path: params.path }, `"${rel}" is a binary file`);
    const text = new TextDecoder().decode(data);
    if (!params.line && !params.limit) return { content: text };
    // ACP lines are 1-based; `limit` lines from there.
    const lines = text.split('\n');
    const from = Math.max(0, (params.line ?? 1) - 1);
    return { content: lines.slice(from, params.limit ? from + params.limit : undefined).join('\n') };
  } finally {
    await file.handle.close();
  }
}

/** The write as a cell between checkpoints, after our approval; a refused write is a failed cell and the agent's error. */
export async function writeHostedFile(
  live: LiveConversation,
  deps: HostedFileDeps,
  turn: { step: string; agent: string; gate: ChangeGate },
  params: WriteTextFileRequest,
): Promise<Record<string, never>> {
  const shown =
    params.content.length > 2000 ? `${params.content.slice(0, 2000)}\n[… ${params.content.length - 2000} more characters]` : params.content;
  const cell = addAgentCell(live, deps.events, turn.step, {
    agent: turn.agent,
    tool: 'write_text_file',
    code: `${params.path}\n${shown}`,
    toolCallId: null,
    status: 'streaming',
  });
  const started = Date.now();
  try {
    const rel = workspacePath(live.conv.workspace, params.path);
    const verdict = await turn.gate(cell);
    if (verdict !== 'run') {
      finishCell(live, deps.events, cell, 'skipped', verdict.refused);
      throw RequestError.invalidRequest({ path: params.path }, `not written: ${verdict.refused}`);
    }
    cell.status = 'running';
    cell.startedAt = now();
    const before = await checkpointBefore(deps.checkpoints, live.conv, cell);
    const written = await writeWorkspaceText(live.conv.workspace, rel, params.content);
    const changes = await checkpointAfter(deps.checkpoints, live.conv, cell, before, deps.settings());
    if (changes) cell.changes = changes;
    cell.durationMs = Date.now() - started;
    cell.outputs = [{ output_type: 'stream', name: 'stdout', text: `wrote ${Buffer.byteLength(params.content)} bytes to ${written}\n` }];
    finishCell(live, deps.events, cell, 'done', `wrote ${written}`);
    return {};
  } catch (err) {
    if (cell.status !== 'skipped') {
      cell.durationMs = Date.now() - started;
      cell.outputs = [{ output_type: 'error', ename: 'Refused', evalue: errorMessage(err), traceback: [] }];
      finishCell(live, deps.events, cell, 'failed', errorMessage(err));
    }
    throw err instanceof RequestError ? err : RequestError.invalidParams({ path: params.path }, errorMessage(err));
  }
}
