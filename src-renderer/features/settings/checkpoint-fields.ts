import type { FieldPath, Section } from './field-spec';

// Settings → Checkpoints (docs/checkpoints.md): a section of its own file, so settings-fields.ts stays
// the list of the other sections under the files' size cap.
const topField = (key: Extract<FieldPath, { group: null }>['key']): FieldPath => ({ group: null, key });

export const CHECKPOINT_SECTION: Section = {
  title: 'Checkpoints',
  fields: [
    {
      id: 'checkpointMaxFileMb',
      label: 'Largest file recorded',
      kind: 'number',
      nullable: false,
      unit: 'MB',
      path: topField('checkpointMaxFileMb'),
      help: 'Larger files are not checkpointed, and each cell lists them.',
    },
    {
      id: 'checkpointIgnoredMaxKb',
      label: 'Ignored files kept up to',
      kind: 'number',
      nullable: false,
      unit: 'KB',
      path: topField('checkpointIgnoredMaxKb'),
      help: 'Files your .gitignore ignores are kept when this small (.env always), so a rewind puts them back; larger ones and ignored folders are listed on the cell when it changes them.',
    },
    {
      id: 'checkpointBudgetMb',
      label: 'Space per conversation',
      kind: 'number',
      nullable: false,
      unit: 'MB',
      path: topField('checkpointBudgetMb'),
      help: 'Past this, the conversation’s oldest checkpoints are dropped first.',
    },
    {
      id: 'checkpointKeepDays',
      label: 'Keep checkpoints for',
      kind: 'number',
      nullable: false,
      unit: 'days',
      path: topField('checkpointKeepDays'),
    },
    {
      id: 'checkpointStoreMaxMb',
      label: 'Whole store at most',
      kind: 'number',
      nullable: false,
      unit: 'MB',
      path: topField('checkpointStoreMaxMb'),
      help: 'Past this, the oldest checkpoints of every conversation go first.',
    },
  ],
};
