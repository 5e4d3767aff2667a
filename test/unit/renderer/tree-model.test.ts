import type { WorkspaceEntry } from '@contract';
import { describe, expect, it } from 'vitest';
import { changedFolders, visibleRows } from '../../../src-renderer/features/files/tree-model';

const e = (path: string, kind: WorkspaceEntry['kind'] = 'file'): WorkspaceEntry => ({ path, kind, size: 1, mtimeMs: 0 });
const entries = [e('out', 'dir'), e('out/deep', 'dir'), e('out/deep/x.csv'), e('out/a.txt'), e('readme.md')];

describe('the file tree model', () => {
  it('shows the contents of open folders only, with their depth', () => {
    expect(visibleRows(entries, new Set()).map((r) => r.entry.path)).toEqual(['out', 'readme.md']);
    const rows = visibleRows(entries, new Set(['out']));
    expect(rows.map((r) => [r.name, r.depth, r.hasChildren])).toEqual([
      ['out', 0, true],
      ['deep', 1, true],
      ['a.txt', 1, false],
      ['readme.md', 0, false],
    ]);
    // A deeper folder open inside a closed one stays hidden.
    expect(visibleRows(entries, new Set(['out/deep'])).map((r) => r.entry.path)).toEqual(['out', 'readme.md']);
  });

  it('marks every folder above a changed file', () => {
    expect(changedFolders(new Set(['out/deep/x.csv', 'top.txt']))).toEqual(new Set(['out/deep', 'out']));
  });
});
