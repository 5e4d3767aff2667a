import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellCall, useOiTerminal } from './support/oi-terminal-run';

const { start } = useOiTerminal();

describe('%rewind and %undo in oi', () => {
  it('rewinds the files a run changed, asks with --force for files changed outside, and undoes the rewind', async () => {
    const { oi, llm, dir } = await start({}, ['--auto-run']);
    const ws = path.join(dir, 'ws');
    llm.enqueue(shellCall('call_1', 'echo v1 > notes.txt'), { kind: 'text', text: 'Wrote v1.' });
    await oi.expect('> ');
    await oi.enter('write v1', 'Wrote v1.');
    llm.enqueue(shellCall('call_2', 'echo v2 > notes.txt && touch extra.txt'), { kind: 'text', text: 'Wrote v2.' });
    await oi.expect('> ');
    await oi.enter('write v2', 'Wrote v2.', '> ');

    // Edited outside the app: the rewind names it and keeps it.
    writeFileSync(path.join(ws, 'notes.txt'), 'mine\n');
    await oi.enter('%rewind 1', 'Not rewound: these files were changed outside the app since', 'notes.txt');
    expect(readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('mine\n');
    await oi.enter('%rewind 1 --force', 'Rewound the workspace to before that cell');
    expect(readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('v1\n');
    expect(existsSync(path.join(ws, 'extra.txt'))).toBe(false);

    // The rewind was itself checkpointed: %rewind 1 now puts back what it replaced.
    await oi.enter('%rewind 1', /Rewound the workspace to before that cell: \d+ paths/);
    expect(readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(existsSync(path.join(ws, 'extra.txt'))).toBe(true);

    await oi.enter('%undo', 'Removed your last message', /%rewind \d+ puts them back/);
    oi.line('exit');
    expect(await oi.exited).toBe(0);
  });

  it('names the ignored paths it cannot put back, and puts back the small ignored ones, inside ignored folders too (issue 26, item 1)', async () => {
    const { oi, llm, dir } = await start({}, ['--auto-run']);
    const ws = path.join(dir, 'ws');
    mkdirSync(path.join(ws, 'dist'), { recursive: true });
    mkdirSync(path.join(ws, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(path.join(ws, '.gitignore'), '*.log\ndist/\n');
    writeFileSync(path.join(ws, 'dist', 'app.js'), 'built\n');
    writeFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    writeFileSync(path.join(ws, 'debug.log'), 'small log\n');
    writeFileSync(path.join(ws, 'trace.log'), Buffer.alloc(2 * 1024 * 1024, 7));
    llm.enqueue(shellCall('call_1', 'rm -rf dist node_modules debug.log trace.log'), { kind: 'text', text: 'Removed.' });
    await oi.expect('> ');
    await oi.enter('clean', 'Removed.', '> ');
    await oi.enter('%rewind 1', 'Could not put these back (not kept by the checkpoint):', /node_modules: deleted; installed dependencies/);
    await oi.expect(/trace\.log: deleted; ignored, and larger than/);
    await oi.expect('Rewound the workspace to before that cell');
    expect(readFileSync(path.join(ws, 'debug.log'), 'utf8')).toBe('small log\n');
    // A small ignored folder is recorded whole: its files come back.
    expect(readFileSync(path.join(ws, 'dist', 'app.js'), 'utf8')).toBe('built\n');
    expect(existsSync(path.join(ws, 'trace.log'))).toBe(false);
    oi.line('exit');
    expect(await oi.exited).toBe(0);
  });
});
