import { chmodSync, lstatSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientPolicies } from '../../../src-main/core/mcp-approval/client-policies';

// `oi mcp` keeps its last read of the saved client choices (settings' mcpClients) while the settings
// file is unchanged (issue 37), and a change must count at the very next call: the desktop app saving
// "Always allow" or "refuse", an edit in place, a replacement, a removal. Real files.

const settings = (clients: Record<string, string>) => JSON.stringify({ version: 1, mcpClients: clients });

describe('the saved oi mcp client choices kept between calls', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'oi-client-policies-'));
    file = path.join(dir, 'settings.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('sees a choice saved, edited in place with its mtime set back, replaced, damaged and removed, at the next call', () => {
    // As if every write were long ago: only the file's identity tells a change.
    const policies = new ClientPolicies(dir, () => Date.now() + 60_000);
    expect(policies.of('a')).toBe('ask');
    writeFileSync(file, settings({ a: 'allow' }));
    expect(policies.of('a')).toBe('allow');
    expect(policies.saved()).toBe(policies.saved());
    // Same size, mtime put back: the ctime (which nobody sets back) still moves.
    const before = lstatSync(file);
    writeFileSync(file, settings({ b: 'allow' }));
    while (lstatSync(file).ctimeMs === before.ctimeMs) chmodSync(file, 0o600);
    utimesSync(file, before.atime, before.mtime);
    expect(lstatSync(file).size).toBe(before.size);
    expect(policies.of('a')).toBe('ask');
    expect(policies.of('b')).toBe('allow');
    writeFileSync(`${file}.new`, settings({ a: 'refuse' }));
    renameSync(`${file}.new`, file);
    expect(policies.of('a')).toBe('refuse');
    writeFileSync(file, '{"mcpClients": ');
    expect(policies.of('a')).toBe('ask');
    writeFileSync(file, settings({ a: 'refuse' }));
    expect(policies.of('a')).toBe('refuse');
    rmSync(file);
    expect(policies.of('a')).toBe('ask');
  });

  it('reads through a link at every call: what it leads to may change without the link changing', () => {
    const policies = new ClientPolicies(dir, () => Date.now() + 60_000);
    const target = path.join(dir, 'elsewhere.json');
    writeFileSync(target, settings({ a: 'allow' }));
    symlinkSync(target, file);
    expect(policies.of('a')).toBe('allow');
    writeFileSync(target, settings({ a: 'refuse' }));
    expect(policies.of('a')).toBe('refuse');
  });

  it('never keeps a read of a file changed within the last clock ticks, whose times could repeat; twin: a minute later it does', () => {
    writeFileSync(file, settings({ a: 'allow' }));
    const changedAt = Number(lstatSync(file, { bigint: true }).ctimeNs / 1_000_000n);
    const soon = new ClientPolicies(dir, () => changedAt + 10);
    expect(soon.saved()).not.toBe(soon.saved());
    const later = new ClientPolicies(dir, () => changedAt + 60_000);
    expect(later.saved()).toBe(later.saved());
  });

  it('sees a file rewritten in the same instant as the last read (same size), with the real clock', () => {
    const policies = new ClientPolicies(dir);
    writeFileSync(file, settings({ a: 'allow' }));
    expect(policies.of('a')).toBe('allow');
    writeFileSync(file, settings({ b: 'allow' }));
    expect(policies.of('a')).toBe('ask');
  });
});
