import type { Attachment, CellItem, CellOutput, CellStatus, ConversationItem, JupyterCellOrigin } from '@contract';
import { APP_KEY, CellMeta, type CodeCellMeta, RERUN_TAGS, type UserCellMeta } from './app-metadata';
import { CellIdAllocator } from './cell-ids';
import { attachmentBytes, extractAttachments, type ImportedFile, isSafeAttachmentPath } from './import-attachments';
import { languageFromMagic, magicFor, notebookLanguage } from './languages';
import { joinBundle, joinLines } from './multiline';
import { type AttachmentsV4, isCellOfType, isOutputOfType, type OutputV4, type ReadCell } from './nbformat-schema';
import { outputsForModel } from './outputs-for-model';
import { attachmentKey, unquotedUserText, withoutAttachmentLines } from './user-attachments';

// From validated notebook cells to conversation items.
//
// The rules, also in docs/notebooks.md:
// - A cell carrying the app's `oi` metadata becomes the item it was exported from.
// - Any other markdown cell is prose, an assistant item: a notebook's text explains its code, and the
//   user's own words in an imported conversation are the messages they type next.
// - Any other raw cell becomes an info notice holding its text as-is (raw cells are neither prose
//   nor code: Jupyter neither renders nor runs them).
// - Any other code cell becomes a run: done, or failed when it has an error output, approved by the
//   user. Cells never run (no count, no outputs) become 'skipped' with no approval.
// - What a cell carries that the item has no field for (its type, metadata, attachments, source as
//   written) goes into the item's `jupyter` origin, so export writes the cell back unchanged.

export interface CellImportContext {
  kernelLanguage: string;
  now: string;
  modelOutputChars: number;
  warnings: string[];
  files: ImportedFile[];
}

const FROZEN: Partial<Record<CellStatus, CellStatus>> = {
  // Nothing is running in a conversation that was just imported.
  running: 'interrupted',
  'awaiting-approval': 'skipped',
  streaming: 'skipped',
};

export function cellsToItems(cells: readonly ReadCell[], ctx: CellImportContext): ConversationItem[] {
  const ids = new CellIdAllocator('cell');
  const items: ConversationItem[] = [];
  let step: string | null = null;
  let stepCount = 0;
  const newStep = (): string => `nb-step-${++stepCount}`;
  const repeatedIds: Array<[number, string, string]> = [];

  cells.forEach((cell, index) => {
    const cellId = typeof cell.id === 'string' ? cell.id : undefined;
    const id = ids.allocate(cellId, index);
    if (cellId !== undefined && id !== cellId) repeatedIds.push([index, cellId, id]);
    const oi = appMeta(cell, index, ctx.warnings);

    if (isCellOfType(cell, 'markdown')) {
      const source = joinLines(cell.source);
      if (oi?.role === 'tasks' || oi?.role === 'subagent') return;
      if (oi?.role === 'user') {
        items.push(withOrigin(userItem(id, source, oi, cell.attachments, index, ctx), appOrigin(cell)));
        step = null;
        return;
      }
      if (oi?.role === 'code') {
        // An MCP call (mcp-call-cell.ts): the arguments and outputs are in the metadata.
        step = oi.step;
        items.push(withOrigin(codeItem(id, oi.code ?? '', oi.mcpOutputs ?? [], null, oi, ctx, index), appOrigin(cell)));
        return;
      }
      if (oi?.role === 'assistant') {
        step = oi.step;
        const item: ConversationItem = {
          kind: 'assistant',
          id,
          step,
          text: source,
          thinking: [],
          interrupted: oi.interrupted,
          createdAt: oi.createdAt,
        };
        items.push(withOrigin(item, appOrigin(cell)));
        return;
      }
      // Attachments are written out as files so the chat can show them; the cell keeps its own.
      const extracted = extractAttachments(id, source, cell.attachments);
      ctx.files.push(...extracted.files);
      step = newStep();
      const origin = foreignOrigin(cell, 'markdown');
      if (extracted.text !== source) origin.source = source;
      items.push({
        kind: 'assistant',
        id,
        step,
        text: extracted.text,
        thinking: [],
        interrupted: false,
        createdAt: ctx.now,
        jupyter: origin,
      });
      return;
    }

    if (isCellOfType(cell, 'raw')) {
      const source = joinLines(cell.source);
      if (oi?.role === 'code') {
        step = oi.step;
        items.push(withOrigin(codeItem(id, source, [], null, oi, ctx, index), appOrigin(cell)));
        return;
      }
      if (oi?.role === 'notice') {
        const item: ConversationItem = { kind: 'notice', id, level: oi.level, text: source, createdAt: oi.createdAt };
        items.push(withOrigin(item, appOrigin(cell)));
        return;
      }
      items.push({ kind: 'notice', id, level: 'info', text: source, createdAt: ctx.now, jupyter: foreignOrigin(cell, 'raw') });
      return;
    }

    if (isCellOfType(cell, 'code')) {
      const source = joinLines(cell.source);
      const outputs = importOutputs(cell.outputs, index, ctx.warnings);
      // The app's own helper definitions (export-helpers.ts): the app predefines them.
      if (oi?.role === 'helpers') return;
      if (oi?.role === 'notice' && oi.install) {
        const install = oi.install;
        const item: ConversationItem = { kind: 'notice', id, level: oi.level, text: oi.text ?? source, createdAt: oi.createdAt, install };
        items.push(withOrigin(item, appOrigin(cell)));
        return;
      }
      if (oi?.role === 'code') {
        step = oi.step;
        items.push(withOrigin(codeItem(id, source, outputs, cell.execution_count, oi, ctx, index), appOrigin(cell)));
      } else {
        step ??= newStep();
        items.push(foreignCodeItem(id, step, source, outputs, cell.execution_count, cell, ctx));
      }
      return;
    }

    ctx.warnings.push(`Cell ${index} has the unknown type "${cell.cell_type}" (from a newer notebook format); it was left out.`);
  });

  if (repeatedIds.length > 0) {
    const named = repeatedIds
      .slice(0, 10)
      .map(([index, was, now]) => `cell ${index} ("${was}" → "${now}")`)
      .join(', ');
    const more = repeatedIds.length > 10 ? ` and ${repeatedIds.length - 10} more` : '';
    ctx.warnings.push(`Cell ids must be unique; repeated ones were given new ids: ${named}${more}.`);
  }
  return items;
}

/** The cell's type, metadata and attachments, for a cell that did not come from this app. */
function foreignOrigin(cell: ReadCell, cellType: 'markdown' | 'code' | 'raw'): JupyterCellOrigin {
  const origin: JupyterCellOrigin = { cellType, metadata: { ...cell.metadata } };
  const attachments = 'attachments' in cell ? (cell.attachments as JupyterCellOrigin['attachments']) : undefined;
  if (attachments) origin.attachments = attachments;
  return origin;
}

/**
 * What an app-written cell carries besides the app's own metadata (tags added in Jupyter, say).
 * `execution` is left out: export writes it from the run's own times.
 */
function appOrigin(cell: ReadCell): JupyterCellOrigin | undefined {
  const { [APP_KEY]: _app, execution: _times, tags, ...rest } = cell.metadata;
  // Tags export adds for how a run ended are made again from the run; only others are kept.
  const kept = Array.isArray(tags) ? tags.filter((tag) => !RERUN_TAGS.includes(tag)) : [];
  const metadata = kept.length > 0 ? { ...rest, tags: kept } : rest;
  return Object.keys(metadata).length > 0 ? { metadata } : undefined;
}

function withOrigin<T extends ConversationItem>(item: T, origin: JupyterCellOrigin | undefined): T {
  return origin ? { ...item, jupyter: origin } : item;
}

function appMeta(cell: ReadCell, index: number, warnings: string[]): CellMeta | null {
  const raw = cell.metadata[APP_KEY];
  if (raw === undefined) return null;
  const parsed = CellMeta.safeParse(raw);
  const fits =
    parsed.success &&
    ((cell.cell_type === 'markdown' &&
      (parsed.data.role === 'user' ||
        parsed.data.role === 'assistant' ||
        parsed.data.role === 'tasks' ||
        parsed.data.role === 'subagent' ||
        (parsed.data.role === 'code' && parsed.data.language.startsWith('mcp:')))) ||
      (cell.cell_type === 'raw' && (parsed.data.role === 'notice' || parsed.data.role === 'code')) ||
      (cell.cell_type === 'code' &&
        (parsed.data.role === 'code' ||
          parsed.data.role === 'helpers' ||
          (parsed.data.role === 'notice' && parsed.data.install !== undefined))));
  if (!parsed.success || !fits) {
    warnings.push(`Cell ${index}: its "${APP_KEY}" metadata is not what this app writes; the cell was read as a plain Jupyter cell.`);
    return null;
  }
  return parsed.data;
}

function userItem(
  id: string,
  source: string,
  oi: UserCellMeta,
  cellAttachments: AttachmentsV4 | undefined,
  index: number,
  ctx: CellImportContext,
): ConversationItem {
  const attachments: Attachment[] = [];
  const keys = new Set<string>();
  for (const listed of oi.attachments) {
    const bundle = listed.embedded !== null ? cellAttachments?.[listed.embedded] : undefined;
    const bytes = bundle ? attachmentBytes(bundle, listed.name) : null;
    if (!bytes) {
      ctx.warnings.push(`Cell ${index}: the attachment "${listed.name}" is not inside the notebook (only images are); it was left out.`);
      continue;
    }
    const path = isSafeAttachmentPath(listed.path) ? listed.path : `attachments/${id}-${attachmentKey(listed.name, keys)}`;
    ctx.files.push({ path, data: bytes.data, mime: listed.mime });
    attachments.push({ path, name: listed.name, mime: listed.mime, size: bytes.data.byteLength });
  }
  const unquoted = unquotedUserText(source);
  const text = withoutAttachmentLines(unquoted, oi.attachments) ?? unquoted;
  return { kind: 'user', id, text, attachments, createdAt: oi.createdAt };
}

function codeItem(
  id: string,
  source: string,
  outputs: CellOutput[],
  executionCount: number | null,
  oi: CodeCellMeta,
  ctx: CellImportContext,
  index: number,
): CellItem {
  const magic = ctx.kernelLanguage === 'python' ? magicFor(notebookLanguage(oi.language, oi.shell)) : '';
  let code = source;
  if (magic && (source === magic || source.startsWith(`${magic}\n`))) code = source.slice(magic.length + 1);
  // The lines export put before a shell cell's code (its session's cd and exports), and the code as
  // the app ran it when export made its workspace paths relative.
  if (oi.prelude) code = code.split('\n').slice(oi.prelude).join('\n');
  if (oi.code !== undefined) code = oi.code;
  const frozen = FROZEN[oi.status];
  if (frozen) ctx.warnings.push(`Cell ${index} was "${oi.status}" when exported; it is imported as "${frozen}".`);
  const ran = executionCount !== null || outputs.length > 0;
  return {
    kind: 'cell',
    id,
    step: oi.step,
    toolCallId: oi.toolCallId,
    language: oi.language,
    code,
    status: frozen ?? oi.status,
    approval: frozen === 'skipped' ? null : oi.approval,
    outputs,
    exitCode: oi.exitCode,
    durationMs: oi.durationMs,
    executionCount,
    startedAt: oi.startedAt,
    limits: oi.limits,
    resultForModel: ran ? outputsForModel(outputs, ctx.modelOutputChars) : null,
    imported: true,
    ...(oi.shell ? { shell: oi.shell } : {}),
    ...(oi.modelCode !== undefined ? { modelCode: oi.modelCode } : {}),
    ...(oi.cwd ? { cwd: oi.cwd } : {}),
    ...(oi.envChanges ? { envChanges: oi.envChanges } : {}),
    ...(oi.mcp ? { mcp: oi.mcp } : {}),
  };
}

function foreignCodeItem(
  id: string,
  step: string,
  source: string,
  outputs: CellOutput[],
  executionCount: number | null,
  cell: ReadCell,
  ctx: CellImportContext,
): CellItem {
  const magic = ctx.kernelLanguage === 'python' ? languageFromMagic(source) : null;
  const ran = executionCount !== null || outputs.length > 0;
  const timing = executionTiming(cell.metadata.execution);
  const origin = foreignOrigin(cell, 'code');
  if (magic) origin.magic = magic.magic;
  return {
    kind: 'cell',
    id,
    step,
    toolCallId: null,
    language: magic?.language ?? ctx.kernelLanguage,
    code: magic?.code ?? source,
    status: !ran ? 'skipped' : outputs.some((o) => o.output_type === 'error') ? 'failed' : 'done',
    approval: ran ? 'user' : null,
    outputs,
    exitCode: null,
    durationMs: timing.durationMs,
    executionCount,
    startedAt: timing.startedAt,
    limits: null,
    resultForModel: ran ? outputsForModel(outputs, ctx.modelOutputChars) : null,
    imported: true,
    jupyter: origin,
  };
}

/** Start and duration from the kernel timestamps Jupyter records in cell metadata, when present. */
function executionTiming(execution: unknown): { startedAt: string | null; durationMs: number | null } {
  if (typeof execution !== 'object' || execution === null) return { startedAt: null, durationMs: null };
  const times = execution as Record<string, unknown>;
  const start = times['iopub.execute_input'] ?? times['iopub.status.busy'];
  const end = times['shell.execute_reply'] ?? times['iopub.status.idle'];
  const startMs = typeof start === 'string' ? Date.parse(start) : NaN;
  const endMs = typeof end === 'string' ? Date.parse(end) : NaN;
  if (Number.isNaN(startMs)) return { startedAt: null, durationMs: null };
  return {
    startedAt: new Date(startMs).toISOString(),
    durationMs: Number.isNaN(endMs) || endMs < startMs ? null : endMs - startMs,
  };
}

function importOutputs(outputs: readonly OutputV4[], cell: number, warnings: string[]): CellOutput[] {
  const kept: CellOutput[] = [];
  outputs.forEach((o, index) => {
    if (isOutputOfType(o, 'stream')) {
      if (o.name !== 'stdout' && o.name !== 'stderr') {
        warnings.push(`Cell ${cell}, output ${index}: the stream "${o.name}" is shown as stdout.`);
      }
      kept.push({ output_type: 'stream', name: o.name === 'stderr' ? 'stderr' : 'stdout', text: joinLines(o.text) });
    } else if (isOutputOfType(o, 'display_data')) {
      kept.push({ output_type: 'display_data', data: joinBundle(o.data), metadata: o.metadata });
    } else if (isOutputOfType(o, 'execute_result')) {
      kept.push({ output_type: 'execute_result', execution_count: o.execution_count, data: joinBundle(o.data), metadata: o.metadata });
    } else if (isOutputOfType(o, 'error')) {
      kept.push({ output_type: 'error', ename: o.ename, evalue: o.evalue, traceback: o.traceback });
    } else {
      warnings.push(`Cell ${cell}, output ${index} has the unknown type "${o.output_type}"; it was left out.`);
    }
  });
  return kept;
}
