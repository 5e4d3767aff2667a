import type { Conversation, ExecSettings } from '@contract';
import type { ExecService } from '../../../../src-main/core/exec';
import { exportNotebook } from '../../../../src-main/core/notebook/ipynb-export';
import { importNotebook } from '../../../../src-main/core/notebook/ipynb-import';
import { applyRunResult, rerunCells, rerunnableCells } from '../../../../src-main/core/notebook/rerun';

// What the tests compare with `nbconvert --execute`: a notebook imported, re-run in the app ("Re-run
// all") and exported, and the outputs of a cell as kinds.

export interface NbOutput {
  output_type: string;
  name?: string;
  data?: Record<string, unknown>;
  ename?: string;
  execution_count?: number | null;
  text?: string | string[];
}

/**
 * A cell's outputs as kinds, adjacent text of one stream joined (Jupyter's front ends show them as one;
 * how a kernel batches a stream into messages depends on timing).
 */
export function outputKinds(outputs: NbOutput[]): string[] {
  const kinds: string[] = [];
  for (const o of outputs) {
    const kind =
      o.output_type === 'stream'
        ? `stream:${o.name}`
        : o.output_type === 'error'
          ? `error:${o.ename}`
          : `${o.output_type}:${Object.keys(o.data ?? {})
              .sort()
              .join('+')}${o.output_type === 'execute_result' ? `@${o.execution_count}` : ''}`;
    if (kind.startsWith('stream:') && kinds.at(-1) === kind) continue;
    kinds.push(kind);
  }
  return kinds;
}

/** The notebook's text imported, its cells re-run in the app's sessions, and exported again. */
export async function rerunInApp(
  exec: ExecService,
  text: string,
  ctx: { name: string; workspace: string; settings: ExecSettings },
): Promise<{ exported: string; stoppedAt: string | null }> {
  const imported = importNotebook(text, { maxBytes: 1e9, fileName: `${ctx.name}.ipynb` });
  const conversationId = `rerun-${ctx.name}`;
  const cells = rerunnableCells(imported.conversationItems);
  const outcome = await rerunCells(exec, cells, { conversationId, workspace: ctx.workspace, settings: ctx.settings });
  const items = imported.conversationItems.map((item) => {
    const ran = outcome.results.find((r) => r.cellId === item.id);
    return ran && item.kind === 'cell' ? applyRunResult(item, ran.result, new Date().toISOString()) : item;
  });
  const conv: Conversation = {
    version: 1,
    id: `conv-${ctx.name}`,
    title: imported.title,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    workspace: ctx.workspace,
    items,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    autoRun: false,
    notebook: imported.notebook,
  };
  await exec.closeConversation(conversationId);
  return {
    exported: JSON.stringify(exportNotebook(conv, { appVersion: '0.1.0', provider: 'openai', model: 'm' })),
    stoppedAt: outcome.stoppedAt?.result.forModel.slice(0, 2000) ?? null,
  };
}
