import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { CellItem } from '@contract';
import { ComputerService } from '../../../src-main/core/agent/computer-cell';
import type { AgentHarness } from '../../support/agent-harness';
import { runComputerCode } from '../../support/computer-code-turn';
import { installed } from '../../support/installed';
import { useAgentHarness } from '../../support/use-agent-harness';
import { useXvfb } from '../../support/xvfb';

// Issue 32: `computer.*` in Python cells (docs/computer-use.md#in-code). Sandboxed code asks main over
// the runner's side channel; main acts only where the person turned computer use on for the
// conversation, and each action is a computer cell the person approves. The attack: code the model
// wrote (auto-run on, so it runs unasked, in the sandbox) screenshots the screen, finds the form's
// Submit button and clicks it — in a conversation where the person never turned computer use on. It
// is refused, nothing is seen or pressed. Its twin: the same code where the person turned it on and
// approves; the click lands and the form is sent.

vi.setConfig({ testTimeout: 240_000 });

const canRun = process.platform === 'linux' && installed('Xvfb') && installed('xdotool') && installed('xwd') && installed('bwrap');

/** Finds the blue Submit button in the screenshot main sent back (our PNG: RGB, unfiltered rows) and clicks it. */
const CLICK_SUBMIT = String.raw`
import struct, zlib
shot = computer.display.screenshot()
png, at, data = shot.png, 8, b''
while at < len(png):
    n = struct.unpack('>I', png[at:at + 4])[0]
    if png[at + 4:at + 8] == b'IDAT':
        data += png[at + 8:at + 8 + n]
    at += 12 + n
raw, stride, found = zlib.decompress(data), shot.width * 3 + 1, None
for y in range(shot.height):
    row = raw[y * stride + 1:(y + 1) * stride]
    x = row.find(b'\x00\x00\xff')
    while x >= 0 and x % 3:
        x = row.find(b'\x00\x00\xff', x + 1)
    if x >= 0:
        found = (x // 3 + 3, y + 3)
        break
print('submit at', found)
print(computer.mouse.click(*found))
`;

const x = useXvfb(canRun, { width: 1280, height: 800, tmpPrefix: 'oi-computer-code-' });
const startHarness = useAgentHarness();

/** A turn whose model runs CLICK_SUBMIT in a sandboxed Python cell, auto-run on; computer use as given. */
async function runTurn(computerUse: boolean): Promise<{ harness: AgentHarness; id: string }> {
  const harness = await startHarness({
    rerunExports: false, // the cell acts on a screen, which a notebook re-run has not got
    sandboxed: true,
    settings: { sandbox: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] } },
    computer: new ComputerService({ pids: [], windowIds: [] }, { DISPLAY: x.display }, 100),
  });
  const id = await runComputerCode(harness, CLICK_SUBMIT, { computerUse, prompt: 'Send the form on the screen.' });
  return { harness, id };
}

describe.skipIf(!canRun)('computer.* in sandboxed Python cells', () => {
  it('refuses every action where the person did not turn computer use on: nothing seen, nothing pressed', async () => {
    const out = path.join(x.tmp, 'sent-off');
    await x.startForm(out);
    const { harness, id } = await runTurn(false);
    const items = (await harness.agent.snapshot(id)).items.filter((i): i is CellItem => i.kind === 'cell');
    const code = items.find((c) => c.language === 'python');
    expect(code?.limits?.sandbox).toMatch(/^bubblewrap: .*network off/);
    expect(code?.status).toBe('failed');
    expect(code?.resultForModel).toContain('ComputerError: Not done: computer use is off in this conversation');
    // No action reached the screen or the person: no computer cell, no approval asked, no banner.
    expect(items.filter((c) => c.language === 'computer')).toEqual([]);
    expect(harness.payloads('computer.action')).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('twin: turned on, the same code screenshots, clicks Submit through the approvals, and the form is sent', async () => {
    const out = path.join(x.tmp, 'sent-on');
    await x.startForm(out);
    const { harness, id } = await runTurn(true);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ text: '', checked: false });
    const items = (await harness.agent.snapshot(id)).items.filter((i): i is CellItem => i.kind === 'cell');
    const code = items.find((c) => c.language === 'python');
    expect(code?.limits?.sandbox).toMatch(/^bubblewrap: .*network off/);
    expect(code?.status).toBe('done');
    // Each action is a computer cell of its own, after the code's, asked for and shown in the banner.
    const actions = items.filter((c) => c.language === 'computer');
    expect(actions.map((c) => [JSON.parse(c.code).action, c.fromCell, c.status])).toEqual([
      ['screenshot', code?.id, 'done'],
      ['click', code?.id, 'done'],
    ]);
    expect(actions[0]?.approval).toBe('user');
    expect(actions[1]?.approval).toBe('auto'); // "allow for this task"
    expect(harness.payloads('computer.action').map((a) => a.phase)).toContain('doing');
    // Not the model's calls: the next request holds the code cell's output, not two computer calls.
    const messages = JSON.stringify((harness.bodies().at(-1) as { messages: unknown[] }).messages);
    expect(messages).toContain('Click at');
    expect(messages).not.toContain('"name":"computer"');
  });
});
