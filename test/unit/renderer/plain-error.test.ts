import { describe, expect, it } from 'vitest';
import { plainError } from '../../../src-renderer/state/plain-error';

describe('errors as a person reads them', () => {
  it('ignores a second Run or Stop on a cell the first click already handled', () => {
    expect(plainError(new Error('cell.approve: cell 01JF3Z8K2QW is not waiting for approval'))).toBeNull();
    expect(plainError(new Error('cell.interrupt: cell 01JF3Z8K2QW is not running'))).toBeNull();
  });

  it('never shows the internal request name', () => {
    expect(plainError(new Error('workspace.preview: "chart-renamed.png" does not exist in the workspace'))).toBe(
      '"chart-renamed.png" does not exist in the workspace',
    );
    expect(plainError('settings.update: model: must not be empty')).toBe('model: must not be empty');
  });

  it('replaces sentences that name an id with ones that do not', () => {
    const shown = plainError(
      new Error('checkpoint.rewind: there is no checkpoint before cell 01JF3Z8K2QW (it may have been pruned, or never run here)'),
    );
    expect(shown).toBe('There is no saved state from before this cell (it may have been pruned, or never run here).');
    expect(plainError(new Error('conversation.get: no conversation with id 01JF3Z8K2QW'))).not.toContain('01JF3Z8K2QW');
  });

  it('keeps a message that was already plain', () => {
    expect(plainError(new Error('The model server could not be reached.'))).toBe('The model server could not be reached.');
  });
});
