import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';

// A saved command in oi (docs/agent.md#saved-commands): `oi -m '/review 42 "very high"'` sends the
// command file's text with $1, $2 and $ARGUMENTS filled in, and says which file it came from. The same
// run shows a note the model saves to memory (docs/agent.md#memory) as one line.

let llm: ScriptedLlm | null = null;
const data = tempDir('oi-cli-commands-');
afterAll(async () => {
  await llm?.close();
  data.remove();
});

describe('oi with a saved command', () => {
  it('sends /review 42 "very high" as the command’s text with its arguments, naming the file; a note saved to memory is printed', async () => {
    llm = await startScriptedLlm({ models: ['commander'] });
    const commands = path.join(data.dir, 'commands');
    mkdirSync(commands, { recursive: true });
    writeFileSync(
      path.join(commands, 'review.md'),
      '---\ndescription: Review a pull request\nargument-hint: <pr> [priority]\n---\nReview PR #$1 at priority $2 (asked: $ARGUMENTS).\n',
    );
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'n1', name: 'save_memory', arguments: { note: 'PR reviews: run the tests first.' } }] },
      { kind: 'text', text: 'Reviewed.' },
    );
    const args = ['--provider', 'openai-compatible', '--model', 'commander', '--base-url', llm.openaiBaseUrl];
    const result = await runOi([...args, '--workspace', path.join(data.dir, 'ws'), '-m', '/review 42 "very high"'], cliEnv(data.dir));

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`⚙ /review: the saved command in ${path.join(commands, 'review.md')}\n`);
    expect(result.stdout).toContain('Reviewed.');
    expect(result.stdout).toContain('⚙ Remembered: PR reviews: run the tests first.\n');
    expect(readFileSync(path.join(data.dir, 'memory.md'), 'utf8')).toBe('- PR reviews: run the tests first.\n');
    const sent = llm.requests.map((r) => String(JSON.stringify(r.body)));
    expect(sent.filter((body) => body.includes('Review PR #42 at priority very high (asked: 42 \\"very high\\").'))).toHaveLength(2);
    for (const body of sent) expect(body).not.toContain('/review 42');
  });
});
