import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RUN_QUESTION } from '../../../src-main/cli/approval-questions';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, OiTerminal, tempDir } from '../../support/cli-process';
import { installed } from '../../support/installed';
import { findColour, lastScreenshot } from '../../support/png-pixels';
import { startXvfb, type Xvfb } from '../../support/xvfb';

// `oi --computer` (issue 32, item 5; docs/computer-use.md): computer use from the terminal, in a
// pseudo-terminal as a person runs it, against a real X server (Xvfb) and the Tk test form. Each action
// is asked at the terminal; a declined one is not done; each screenshot is saved to a file the terminal
// names. The scripted model aims at the form's parts where it finds them in the screenshot it was sent.

vi.setConfig({ testTimeout: 240_000 });

const canRun = process.platform === 'linux' && installed('Xvfb') && installed('xdotool') && installed('xwd');
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];

let x: Xvfb;
let llm: ScriptedLlm;
let data: ReturnType<typeof tempDir>;
let form: ChildProcess | null = null;
let oi: OiTerminal | null = null;

beforeAll(async () => {
  if (!canRun) return;
  data = tempDir('oi-computer-cli-');
  let seen = 0;
  [x, llm] = await Promise.all([
    startXvfb(1280, 800),
    startScriptedLlm({
      onRequest: (request) => {
        if (!JSON.stringify(request.body).includes('computer')) return;
        // The second request carries the first screenshot: aim from it.
        if (++seen !== 2) return;
        const shot = lastScreenshot(request);
        const [field, box, submit] = [findColour(shot, RED), findColour(shot, GREEN), findColour(shot, BLUE)];
        if (!field || !box || !submit) throw new Error('the form is not in the screenshot');
        const act = (args: Record<string, unknown>) => ({ name: 'computer', arguments: args });
        llm.enqueue(
          {
            kind: 'tool',
            calls: [
              act({ action: 'click', ...field }),
              act({ action: 'type', text: 'typed from oi' }),
              act({ action: 'type', text: 'declined at the terminal' }),
              act({ action: 'click', ...box }),
              act({ action: 'click', ...submit }),
            ],
          },
          { kind: 'text', text: 'The form is sent.' },
        );
      },
    }),
  ]);
});
afterAll(async () => {
  if (!canRun) return;
  oi?.kill();
  await oi?.exited;
  form?.kill();
  await Promise.all([x.close(), llm.close()]);
  data.remove();
});

describe.skipIf(!canRun)('oi --computer', () => {
  it('asks at the terminal for each action, does none that is declined, and saves each screenshot to a file it names', async () => {
    const out = path.join(data.dir, 'form.json');
    form = await x.startForm(out);
    const ws = path.join(data.dir, 'ws');
    mkdirSync(ws);
    llm.enqueue({ kind: 'tool', calls: [{ name: 'computer', arguments: { action: 'screenshot' } }] });
    oi = new OiTerminal(
      ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--workspace', ws, '--computer'],
      cliEnv(data.dir, { DISPLAY: x.display }),
    );
    await oi.expect('> ');
    oi.line('Fill in the form and send it.');
    // Six actions, each asked: the screenshot, then the five aimed from it; the second text is declined.
    const answers = ['y', 'y', 'y', 'n', 'y', 'y'];
    for (const answer of answers) {
      await oi.expect(RUN_QUESTION, 120_000);
      oi.line(answer);
    }
    await oi.expect('The form is sent.', 120_000);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ text: 'typed from oi', checked: true });
    // Each action as it happens, the terminal's banner; never the declined one.
    expect(oi.output).toContain('[computer] Type "typed from oi" (Ctrl-C stops)');
    expect(oi.output).not.toContain('[computer] Type "declined');
    // A screenshot after each action done (five), saved where the terminal says: PNG files.
    const saved = [...oi.output.matchAll(/\[image saved to ([^\]]+)\]/g)].map((m) => m[1] ?? '');
    expect(saved).toHaveLength(5);
    for (const file of saved) {
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    }
    expect(readdirSync(path.dirname(saved[0] ?? '')).length).toBe(saved.length);
  });
});
