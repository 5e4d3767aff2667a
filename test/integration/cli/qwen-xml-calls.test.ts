import { describe, expect, it } from 'vitest';
import { doneCells, jsonEvents, runAutoJson, useCliRun } from '../../support/cli-run';

// `oi -m --json` with Qwen3-Coder served without a tool parser: it writes its calls as XML inside
// <tool_call> (its chat template's form), which must run as cells, code with quotes and all.

const cli = useCliRun();

// As Qwen3-Coder writes it: a newline after each opening tag and before each closing one.
const XML_CALL = [
  'Let me run that.',
  '<tool_call>',
  '<function=execute>',
  '<parameter=language>',
  'python',
  '</parameter>',
  '<parameter=code>',
  'word = "qwen\'s"',
  'print(word, 6 * 7)',
  '</parameter>',
  '</function>',
  '</tool_call>',
].join('\n');

describe.each(['ollama', 'openai-compatible'] as const)('oi -m with Qwen3-Coder over %s', (provider) => {
  it("runs a call written in Qwen3-Coder's XML form", async () => {
    const { llm, dir } = await cli.start('oi-cli-qwen-xml-', { chunkSize: 7, models: ['qwen3-coder:30b'] });
    llm.enqueue({ kind: 'text', text: XML_CALL }, { kind: 'text', text: 'It printed 42.' });
    const result = await runAutoJson(llm, dir, ['--provider', provider, '--model', 'qwen3-coder:30b'], 'run it');

    expect(result.code).toBe(0);
    const cells = doneCells(jsonEvents(result.stdout));
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({
      status: 'done',
      callDialect: 'qwen-xml',
      language: 'python',
      code: 'word = "qwen\'s"\nprint(word, 6 * 7)',
    });
    expect(cells[0]?.resultForModel).toContain("qwen's 42");
    // The next request gives the call back in the same form, and the result as its template does.
    const next = JSON.stringify(llm.requests.at(-1)?.body);
    expect(next).toContain('<function=execute>');
    expect(next).toContain('<tool_response>');
  });
});
