import path from 'node:path';
import {
  type CellItem,
  type CellOutput,
  type CellStatus,
  type Conversation,
  type ConversationItem,
  type InstallInfo,
  type JupyterCellOrigin,
  type NoticeItem,
  type UserItem,
} from '@contract';
import { APP_KEY, type AssistantCellMeta, type CodeCellMeta, type NoticeCellMeta, type UserCellMeta } from './app-metadata';
import { CellIdAllocator } from './cell-ids';
import { canonicalLanguage, magicFor, notebookLanguage } from './languages';
import { isMcpLanguage } from '../llm/mcp-names';
import { mcpCallCell } from './mcp-call-cell';
import { COMPUTER_LANGUAGE } from '../llm/computer-tool';
import { installsBeforeUse, type LiveCellPlan, planLiveSession } from './live-session-export';
import { splitBundle, splitLines } from './multiline';
import type { AttachmentsV4, CodeCellV4, KnownOutputV4, MarkdownCellV4, NotebookV4, RawCellV4 } from './nbformat-schema';
import { helpersCell, helpersUsed } from './export-helpers';
import { isToolUseCell, taskListCell } from './task-list-cell';
import { subagentHeading, subagentOf } from './subagent-section';
import { kernelLanguageFor, kernelLanguageOf, notebookMetadata } from './notebook-metadata';
import { attachmentKey, type ListedAttachment, quotedUserText, withAttachmentLines } from './user-attachments';

export interface ExportMeta {
  appVersion: string;
  provider: string;
  model: string;
  /** The app's resources folder, where notebook-files.ts reads the runner helpers a notebook uses (not written to it). */
  resourcesDir?: string;
}

export interface ExportOptions {
  /** Reads an attachment's bytes by absolute path; null when it is gone. Without it, images are only named. */
  readAttachment?: (absolutePath: string) => Uint8Array | null;
  /** The runner's oi_files.py, to define `files` for a plain kernel (export-helpers.ts); null when it cannot be read. */
  pythonFilesSource?: () => string | null;
  /** The sub-agent conversations its delegate cells started (loadSubagents), exported under their call. */
  subagents?: ReadonlyMap<string, Conversation>;
}

// Code the user never approved (declined, still waiting, still being written) is written as a raw
// cell: Jupyter shows it but "Run all" and nbconvert --execute never run it.
const NOT_APPROVED: ReadonlySet<CellStatus> = new Set(['skipped', 'awaiting-approval', 'streaming']);

type ExportedCell = MarkdownCellV4 | CodeCellV4 | RawCellV4;

/**
 * A conversation as an nbformat 4.5 notebook with cell ids, every output kept. A conversation imported
 * from a notebook is written back as that notebook: its minor version, metadata and kernel, and each
 * cell's own type, metadata and attachments (docs/notebooks.md, "Lossless round trip").
 */
export function exportNotebook(conv: Conversation, meta: ExportMeta, options: ExportOptions = {}): NotebookV4 {
  const origin = conv.notebook;
  const keepKernel = origin !== undefined && !origin.fromApp;
  const language = keepKernel ? kernelLanguageOf(origin.metadata) : kernelLanguageFor(mainLanguage(conv.items));
  const pythonKernel = language === 'python';
  const minor = origin?.nbformatMinor ?? 5;
  const ids = new CellIdAllocator('cell');
  const cells: ExportedCell[] = [];
  // Cells have ids from 4.5 on; an older notebook is written back without them.
  const push = (cell: CellWithoutId<ExportedCell>, key: string, index: number) =>
    cells.push(minor >= 5 ? withId(cell, ids.allocate(key, index)) : (cell as ExportedCell));
  const exportAll = (all: readonly ConversationItem[], workspace: string) => {
    const ordered = installsBeforeUse(all);
    const plans = planLiveSession(ordered, workspace, pythonKernel);
    ordered.forEach((item, index) => {
      const cell = exportItem(item, pythonKernel, workspace, options, plans.get(item.id));
      if (cell) push(cell, item.id, index);
      // A sub-agent's own cells under a heading, right after its call (subagent-section.ts).
      const sub = subagentOf(item, options.subagents);
      if (sub && item.kind === 'cell') {
        push(subagentHeading(item, sub), `oi-subagent-${item.id}`, index);
        exportAll(sub.items, sub.workspace);
      }
    });
  };
  exportAll(conv.items, conv.workspace);
  const items = [...conv.items, ...[...(options.subagents?.values() ?? [])].flatMap((sub) => sub.items)];
  const tasks = taskListCell(conv.tasks ?? []);
  if (tasks) cells.push(minor >= 5 ? withId(tasks, ids.allocate('oi-tasks', items.length)) : (tasks as ExportedCell));
  const used = pythonKernel ? helpersUsed(items) : null;
  if (used) {
    // Its id is taken last, so the items keep theirs.
    const cell = helpersCell(used, used.files ? (options.pythonFilesSource?.() ?? null) : null);
    cells.unshift(minor >= 5 ? withId(cell, ids.allocate('oi-helpers', 0)) : (cell as ExportedCell));
  }
  return { nbformat: 4, nbformat_minor: minor, metadata: notebookMetadata(conv, meta, language, keepKernel), cells };
}

/** JSON text as Jupyter writes it: keys sorted, one-space indent, trailing newline. */
export function serializeNotebook(nb: NotebookV4): string {
  // Sorting in a pass of our own keeps JSON.stringify on its fast path (a replacer runs per value).
  return `${JSON.stringify(sortedDeep(nb), null, 1)}\n`;
}

/** The value with every object's keys in sorted order; parts already sorted are reused, not copied. */
function sortedDeep(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const sorted = sortedDeep(item);
      if (sorted !== item) copy ??= value.slice();
      if (copy) copy[i] = sorted;
    }
    return copy ?? value;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i++) inOrder = byCodePoint(keys[i - 1] as string, keys[i] as string) < 0;
  let changed = !inOrder;
  const values = keys.map((key) => {
    const sorted = sortedDeep(source[key]);
    if (sorted !== source[key]) changed = true;
    return sorted;
  });
  if (!changed) return value;
  const order = keys.map((key, i) => [key, values[i]] as const).sort(([a], [b]) => byCodePoint(a, b));
  // Integer-like keys still come first in a JS object; such keys do not occur in what the app writes.
  return Object.fromEntries(order);
}

function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Python sorts by code point, JS by UTF-16 unit; they disagree only when a surrogate is involved.
    if (x < 0xd800 && y < 0xd800) return x - y;
    return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
  }
  return a.length - b.length;
}

/** The most frequent language among code cells (first seen wins a tie); Python when there are none. */
export function mainLanguage(items: readonly ConversationItem[]): string {
  const counts = new Map<string, number>();
  for (const item of items) {
    // An MCP call, a computer action, a delegate call, a skill loaded (docs/agent.md#skills), a plan or task call is no language of the notebook's.
    if (item.kind !== 'cell' || isMcpLanguage(item.language) || item.language === COMPUTER_LANGUAGE || isToolUseCell(item)) continue;
    const language = canonicalLanguage(notebookLanguage(item.language, item.shell));
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  let best = 'python';
  let bestCount = 0;
  for (const [language, count] of counts) {
    if (count > bestCount) [best, bestCount] = [language, count];
  }
  return best;
}

/** The cell with its id among its keys in sorted order, which spares the serializer a copy. */
function withId(cell: CellWithoutId<ExportedCell>, id: string): ExportedCell {
  const { cell_type, attachments, ...rest } = cell as CellWithoutId<MarkdownCellV4>;
  const head = attachments ? { attachments, cell_type } : { cell_type };
  return { ...head, ...('execution_count' in cell ? { execution_count: cell.execution_count } : {}), id, ...rest };
}

// Distributes over unions, so each cell type keeps its own fields.
type CellWithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

function exportItem(
  item: ConversationItem,
  pythonKernel: boolean,
  workspace: string,
  options: ExportOptions,
  plan: LiveCellPlan | undefined,
): CellWithoutId<ExportedCell> | null {
  const foreign = item.jupyter?.cellType !== undefined ? jupyterCell(item, item.jupyter) : null;
  if (foreign) return foreign;
  const cell = appCell(item, pythonKernel, workspace, options, plan);
  // Metadata a Jupyter user added to the app's own cell (tags, say) goes back beside the app's.
  if (cell && item.jupyter && Object.keys(item.jupyter.metadata).length > 0) {
    const tags = mergedTags(item.jupyter.metadata.tags, cell.metadata.tags);
    cell.metadata = { ...item.jupyter.metadata, ...cell.metadata, ...(tags ? { tags } : {}) };
  }
  return cell;
}

function mergedTags(kept: unknown, added: unknown): string[] | null {
  const listed = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
  const all = [...listed(kept), ...listed(added)].filter((t): t is string => typeof t === 'string');
  return all.length > 0 ? [...new Set(all)] : null;
}

/**
 * A cell that came from a notebook, written back as it was: its type, metadata, attachments and source
 * as written; a code cell's outputs and count are the item's (a re-run in the app replaces them, and
 * then its `execution` times too). Null when the item no longer fits the cell's type.
 */
function jupyterCell(item: ConversationItem, origin: JupyterCellOrigin): CellWithoutId<ExportedCell> | null {
  const attachments = origin.attachments ? { attachments: origin.attachments } : {};
  if (origin.cellType === 'markdown' && item.kind === 'assistant') {
    return { ...attachments, cell_type: 'markdown', metadata: { ...origin.metadata }, source: splitLines(origin.source ?? item.text) };
  }
  if (origin.cellType === 'raw' && item.kind === 'notice') {
    return { ...attachments, cell_type: 'raw', metadata: { ...origin.metadata }, source: splitLines(item.text) };
  }
  if (origin.cellType === 'code' && item.kind === 'cell') {
    const metadata: Record<string, unknown> = { ...origin.metadata };
    if (item.imported !== true) {
      const execution = executionTimes(item);
      if (execution) metadata.execution = execution;
      else delete metadata.execution;
    }
    return {
      cell_type: 'code',
      execution_count: item.executionCount !== null && item.executionCount >= 0 ? item.executionCount : null,
      metadata,
      outputs: item.outputs.map(exportOutput),
      source: splitLines(`${origin.magic ?? ''}${item.code}`),
    };
  }
  return null;
}

function appCell(
  item: ConversationItem,
  pythonKernel: boolean,
  workspace: string,
  options: ExportOptions,
  plan: LiveCellPlan | undefined,
): CellWithoutId<ExportedCell> | null {
  switch (item.kind) {
    case 'user':
      return userCell(item, workspace, options);
    case 'assistant': {
      // Turns that were only tool calls carry no prose worth a cell.
      if (item.text.trim() === '') return null;
      // Keys in sorted order throughout, as the file will have them (see serializeNotebook).
      const oi: AssistantCellMeta = {
        createdAt: item.createdAt,
        interrupted: item.interrupted,
        role: 'assistant',
        step: item.step,
      };
      return { cell_type: 'markdown', metadata: { [APP_KEY]: oi }, source: splitLines(item.text) };
    }
    case 'cell':
      return codeCell(item, pythonKernel, plan);
    case 'notice':
      return item.install?.ok ? installCell(item, item.install, pythonKernel) : noticeCell(item);
  }
}

function userCell(item: UserItem, workspace: string, options: ExportOptions): CellWithoutId<MarkdownCellV4> {
  const keys = new Set<string>();
  const attachments: AttachmentsV4 = {};
  const listed: ListedAttachment[] = item.attachments.map((attachment) => {
    const bytes = attachment.mime.startsWith('image/') ? readInside(workspace, attachment.path, options) : null;
    if (!bytes) return { ...attachment, embedded: null };
    const key = attachmentKey(attachment.name, keys);
    // SVG is text in a MIME bundle; every other image is base64.
    attachments[key] = {
      [attachment.mime]:
        attachment.mime === 'image/svg+xml' ? splitLines(Buffer.from(bytes).toString('utf8')) : Buffer.from(bytes).toString('base64'),
    };
    return { ...attachment, embedded: key };
  });
  const oi: UserCellMeta = { attachments: listed, createdAt: item.createdAt, role: 'user' };
  const cell: CellWithoutId<MarkdownCellV4> = {
    cell_type: 'markdown',
    metadata: { [APP_KEY]: oi },
    source: splitLines(quotedUserText(withAttachmentLines(item.text, listed))),
  };
  if (Object.keys(attachments).length > 0) cell.attachments = attachments;
  return cell;
}

/** Reads a workspace-relative attachment, refusing paths that lead outside the workspace. */
function readInside(workspace: string, relative: string, options: ExportOptions): Uint8Array | null {
  if (!options.readAttachment) return null;
  const absolute = path.resolve(workspace, relative);
  const inside = path.relative(path.resolve(workspace), absolute);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
  return options.readAttachment(absolute);
}

function codeCell(item: CellItem, pythonKernel: boolean, plan: LiveCellPlan | undefined): CellWithoutId<ExportedCell> {
  const prelude = plan?.prelude ?? [];
  const code = plan?.code ?? item.code;
  // Keys in sorted order throughout, as the file will have them (see serializeNotebook).
  const oi: CodeCellMeta = {
    approval: item.approval,
    ...(code !== item.code ? { code: item.code } : {}),
    ...(item.cwd ? { cwd: item.cwd } : {}),
    durationMs: item.durationMs,
    ...(item.envChanges ? { envChanges: item.envChanges } : {}),
    exitCode: item.exitCode,
    language: item.language,
    limits: item.limits,
    ...(prelude.length > 0 ? { prelude: prelude.length } : {}),
    role: 'code',
    ...(item.shell ? { shell: item.shell } : {}),
    startedAt: item.startedAt,
    status: item.status,
    step: item.step,
    toolCallId: item.toolCallId,
    ...(item.modelCode !== undefined ? { editedByUser: true, modelCode: item.modelCode } : {}),
  };
  if (isMcpLanguage(item.language) || item.language === COMPUTER_LANGUAGE) return mcpCallCell(item, oi);
  // A skill, plan, task or delegate call is not code either: kept as a raw cell, with its metadata, for import to rebuild.
  if (NOT_APPROVED.has(item.status) || isToolUseCell(item)) {
    return { cell_type: 'raw', metadata: { [APP_KEY]: oi }, source: splitLines(item.code) };
  }
  const magic = pythonKernel ? magicFor(notebookLanguage(item.language, item.shell)) : '';
  const execution = executionTimes(item);
  const tags = plan && plan.tags.length > 0 ? { tags: plan.tags } : {};
  const body = prelude.length > 0 ? `${prelude.join('\n')}\n${code}` : code;
  return {
    cell_type: 'code',
    execution_count: item.executionCount !== null && item.executionCount >= 0 ? item.executionCount : null,
    metadata: execution ? { execution, [APP_KEY]: oi, ...tags } : { [APP_KEY]: oi, ...tags },
    outputs: item.outputs.map(exportOutput),
    source: splitLines(magic ? `${magic}\n${body}` : body),
  };
}

/** Jupyter's own record of when a cell ran, so Jupyter tools see the timing too. */
function executionTimes(item: CellItem): Record<string, string> | null {
  if (item.startedAt === null || item.durationMs === null) return null;
  const start = Date.parse(item.startedAt);
  if (Number.isNaN(start)) return null;
  return {
    'iopub.execute_input': new Date(start).toISOString(),
    'shell.execute_reply': new Date(start + item.durationMs).toISOString(),
  };
}

/** An automatic install becomes the cell a person would have written, so "Run all" rebuilds the environment. */
function installCell(item: NoticeItem, install: InstallInfo, pythonKernel: boolean): CellWithoutId<CodeCellV4> {
  const oi: NoticeCellMeta = { createdAt: item.createdAt, level: item.level, role: 'notice', install, text: item.text };
  const packages = install.packages.join(' ');
  const source =
    install.manager === 'pip' && pythonKernel
      ? `%pip install ${packages}`
      : install.manager === 'npm'
        ? `!npm install ${packages}`
        : `!${install.command}`;
  return { cell_type: 'code', execution_count: null, metadata: { [APP_KEY]: oi }, outputs: [], source: splitLines(source) };
}

function noticeCell(item: NoticeItem): CellWithoutId<RawCellV4> {
  const oi: NoticeCellMeta = { createdAt: item.createdAt, level: item.level, role: 'notice' };
  return { cell_type: 'raw', metadata: { [APP_KEY]: oi }, source: splitLines(item.text) };
}

export function exportOutput(output: CellOutput): KnownOutputV4 {
  switch (output.output_type) {
    case 'stream':
      return { name: output.name, output_type: 'stream', text: splitLines(output.text) };
    case 'display_data':
      return { data: splitBundle(output.data), metadata: output.metadata, output_type: 'display_data' };
    case 'execute_result':
      return {
        data: splitBundle(output.data),
        execution_count: output.execution_count !== null && output.execution_count >= 0 ? output.execution_count : null,
        metadata: output.metadata,
        output_type: 'execute_result',
      };
    case 'error':
      return { ename: output.ename, evalue: output.evalue, output_type: 'error', traceback: [...output.traceback] };
  }
}
