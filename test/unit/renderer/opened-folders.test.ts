import { describe, expect, it } from 'vitest';
import { withFoldersOf } from '../../../src-renderer/state/opened-folders';

describe('the folders opened for what a run wrote', () => {
  it('opens every folder above each path, keeps what was open, and leaves the set it was given alone', () => {
    const before = new Set(['attachments']);
    const after = withFoldersOf(before, ['out/deep/x.csv', 'tool.py', 'out/a.txt']);
    expect([...after].sort()).toEqual(['attachments', 'out', 'out/deep']);
    expect([...before]).toEqual(['attachments']);
  });
});
