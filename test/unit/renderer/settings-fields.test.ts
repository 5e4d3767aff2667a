import { defaultSettings } from '@contract';
import { describe, expect, it } from 'vitest';
import { display, parse, patchFor, valueAt } from '../../../src-renderer/features/settings/field-values';
import { SECTIONS } from '../../../src-renderer/features/settings/settings-fields';
import { settingsField } from '../../support/settings-field';

const field = settingsField;

describe('settings fields', () => {
  it('covers every setting the user may change', () => {
    const covered = new Set(SECTIONS.flatMap((s) => s.fields).map((f) => (f.path.group ? `${f.path.group}.${f.path.key}` : f.path.key)));
    const expected = [
      // providerModels and dismissedNotices are the app's bookkeeping (the model last used per provider,
      // notices dismissed for good), changed by what the user does elsewhere, not typed in a field;
      // mcpServers and mcpClients have sections of their own (McpServersSection, McpClientsSection);
      // trustedFolders grows by "Trust this folder" on the instructions line above a conversation.
      ...Object.keys(defaultSettings).filter(
        (k) =>
          !['version', 'exec', 'sandbox', 'providerModels', 'dismissedNotices', 'mcpServers', 'mcpClients', 'trustedFolders'].includes(k),
      ),
      ...Object.keys(defaultSettings.exec).map((k) => `exec.${k}`),
      'sandbox.enabled',
      'sandbox.allowNetwork',
      'sandbox.allowedHosts',
      'sandbox.extraPaths',
    ];
    expect([...expected].filter((k) => !covered.has(k))).toEqual([]);
  });

  it('shows and reads values in the units people think in', () => {
    const timeout = field('timeout');
    expect(display(timeout, valueAt(defaultSettings, timeout.path))).toBe('120');
    expect(parse(timeout, '45')).toEqual({ ok: true, value: 45_000 });
    expect(patchFor(timeout.path, 45_000)).toEqual({ exec: { timeoutMs: 45_000 } });
    expect(parse(field('temperature'), '')).toEqual({ ok: true, value: null });
    expect(parse(field('timeout'), '')).toEqual({ ok: false, error: 'a number is required' });
    expect(parse(field('temperature'), 'warm')).toEqual({ ok: false, error: '“warm” is not a number' });
    expect(parse(field('baseUrl'), '  ')).toEqual({ ok: true, value: null });
  });

  it('reads environment variables one NAME=value per line', () => {
    const env = field('env');
    expect(parse(env, 'A=1\n\nB = two=2\n')).toEqual({ ok: true, value: { A: '1', B: ' two=2' } });
    expect(parse(env, 'nonsense')).toEqual({ ok: false, error: 'line 1: write NAME=value' });
    expect(display(env, { A: '1', B: '2' })).toBe('A=1\nB=2');
  });

  it('reads lists one entry per line, blank lines and spaces dropped', () => {
    const hosts = field('allowedHosts');
    expect(parse(hosts, ' example.com \n\n*.example.org\n')).toEqual({ ok: true, value: ['example.com', '*.example.org'] });
    expect(parse(hosts, '')).toEqual({ ok: true, value: [] });
    expect(display(hosts, ['a.example', '10.0.0.1'])).toBe('a.example\n10.0.0.1');
    expect(patchFor(hosts.path, ['a.example'])).toEqual({ sandbox: { allowedHosts: ['a.example'] } });
  });

  it('reads the hooks as JSON, saying where it is not JSON, and shows none as an empty box', () => {
    const hooks = field('hooks');
    const value = { beforeCell: [{ command: '/usr/bin/python3 /home/me/check.py', matcher: 'shell' }] };
    expect(parse(hooks, JSON.stringify(value))).toEqual({ ok: true, value });
    expect(parse(hooks, '  ')).toEqual({ ok: true, value: {} });
    expect(parse(hooks, '{"beforeCell": [')).toMatchObject({ ok: false, error: expect.stringMatching(/^not valid JSON: /) });
    expect(display(hooks, {})).toBe('');
    expect(JSON.parse(display(hooks, value))).toEqual(value);
    expect(patchFor(hooks.path, value)).toEqual({ hooks: value });
  });
});
