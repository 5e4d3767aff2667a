import { describe, expect, it } from 'vitest';
import { LANGUAGES, findLanguage } from '../../../src-main/core/exec/languages/registry';
import { unavailableMessage } from '../../../src-main/core/exec/output/messages';

describe('language registry', () => {
  it('finds languages by name and alias, case-insensitively', () => {
    const found = {
      py: 'python',
      Python3: 'python',
      node: 'javascript',
      sh: 'shell',
      zsh: 'zsh',
      pwsh: 'powershell',
      osascript: 'applescript',
      R: 'r',
    };
    for (const [alias, name] of Object.entries(found)) expect(findLanguage(alias)?.name, alias).toBe(name);
    expect(findLanguage('cobol')).toBeNull();
  });

  it('gives every alias to one language only', () => {
    const seen = new Map<string, string>();
    for (const l of LANGUAGES) {
      for (const alias of [l.name, ...l.aliases]) {
        expect(seen.get(alias) ?? l.name).toBe(l.name);
        seen.set(alias, l.name);
      }
    }
  });

  it('words a missing runtime with what is available', () => {
    expect(unavailableMessage('R', ['python 3.11', 'node 20', 'bash 5.2'])).toBe(
      'R is not installed on this machine; available here: python 3.11, node 20, bash 5.2.',
    );
  });
});
