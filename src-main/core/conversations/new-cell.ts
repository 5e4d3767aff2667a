import type { CellItem } from '@contract';

/**
 * A cell no run has filled in yet: what its creator knows (which call, which language, the code so
 * far, its status), everything a run reports still empty. The agent's streamed calls, imported
 * conversations and oi mcp's runs all start a cell this way.
 */
export function newCell(known: Pick<CellItem, 'id' | 'step' | 'toolCallId' | 'language' | 'code' | 'status'>): CellItem {
  return {
    kind: 'cell',
    id: known.id,
    step: known.step,
    toolCallId: known.toolCallId,
    language: known.language,
    code: known.code,
    status: known.status,
    approval: null,
    outputs: [],
    exitCode: null,
    durationMs: null,
    executionCount: null,
    startedAt: null,
    limits: null,
    resultForModel: null,
  };
}
