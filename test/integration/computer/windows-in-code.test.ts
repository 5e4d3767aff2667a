import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { CellItem } from '@contract';
import { ComputerService } from '../../../src-main/core/agent/computer-cell';
import { runComputerCode } from '../../support/computer-code-turn';
import { installed } from '../../support/installed';
import { useAgentHarness } from '../../support/use-agent-harness';
import { useXvfb } from '../../support/xvfb';

// computer.window in Python cells (docs/computer-use.md#in-code): the code finds the second of two
// forms by its title, focuses it, looks at it alone and fills it from the keyboard — each call a
// computer cell the person approves, as the tool's calls are.

vi.setConfig({ testTimeout: 240_000 });

const canRun = process.platform === 'linux' && installed('Xvfb') && installed('xdotool') && installed('xwd') && installed('xprop');

const CODE = String.raw`
found = computer.window.find(title='second')
print('found', [(w['title'], w['class']) for w in found])
print(computer.window.focus(found[0]))
shot = computer.display.screenshot(window=found[0]['id'])
print('shot', shot.width, shot.height, found[0]['width'], found[0]['height'])
computer.keyboard.press('Tab')
computer.keyboard.write('typed by code')
computer.keyboard.press('Tab', 'space', 'Tab', 'space')
`;

const x = useXvfb(canRun, { width: 1280, height: 800, tmpPrefix: 'oi-windows-code-' });
const startHarness = useAgentHarness();

describe.skipIf(!canRun)('computer.window in Python cells', () => {
  it('finds the second form by title, focuses it, shows it alone and fills it from the keyboard', async () => {
    const [first, second] = [path.join(x.tmp, 'first.json'), path.join(x.tmp, 'second.json')];
    await x.startForm(first, { x: 40, y: 40, title: 'First form' });
    await x.startForm(second, { x: 800, y: 520, title: 'Second form', className: 'secondform' });
    const harness = await startHarness({
      rerunExports: false, // the cell acts on a screen, which a notebook re-run has not got
      computer: new ComputerService({ pids: [], windowIds: [] }, { DISPLAY: x.display }, 0),
    });
    const id = await runComputerCode(harness, CODE, { computerUse: true, prompt: 'Fill in the second form.' });
    await expect.poll(() => existsSync(second)).toBe(true);
    expect(JSON.parse(readFileSync(second, 'utf8'))).toEqual({ text: 'typed by code', checked: true });
    expect(existsSync(first)).toBe(false);
    const cells = (await harness.agent.snapshot(id)).items.filter((i): i is CellItem => i.kind === 'cell');
    const code = cells.find((c) => c.language === 'python');
    expect(code?.status).toBe('done');
    const printed = code?.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('') ?? '';
    expect(printed).toContain("found [('Second form', 'Secondform')]");
    expect(printed).toMatch(/shot (\d+) (\d+) \1 \2/); // a window smaller than the limit is its own size
    expect(cells.filter((c) => c.language === 'computer').map((c) => JSON.parse(c.code).action)).toEqual([
      'find_window',
      'focus_window',
      'screenshot',
      'key',
      'type',
      'key',
      'key',
      'key',
      'key',
    ]);
  });
});
