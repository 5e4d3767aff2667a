import type { CellItem } from '@contract';
import { skillUseText } from '@contract/skill-use';

/**
 * A call of a skill tool (docs/agent.md#skills), shown as what it is — "Using skill chart-maker" — not
 * as code: nothing ran and nothing was asked. A refused call says why (the model was told the same).
 */
export function SkillUseRow({ cell }: { cell: CellItem }) {
  const failed = cell.status === 'failed';
  return (
    <div className={`notice notice-${failed ? 'warning' : 'info'} skill-use`} role="note" data-testid="skill-use">
      <span>
        {skillUseText(cell)}
        {failed && cell.resultForModel ? ` — ${cell.resultForModel.replace(/^Error: /, '')}` : ''}
      </span>
    </div>
  );
}
