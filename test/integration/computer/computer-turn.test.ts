import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { CellItem } from '@contract';
import { ComputerService } from '../../../src-main/core/agent/computer-cell';
import { exportNotebook } from '../../../src-main/core/notebook/api';
import {
  bindComputerStopShortcut,
  COMPUTER_STOP_ACCELERATOR,
  SHORTCUT_STOP_NOTICE,
} from '../../../src-main/electron/computer-stop-shortcut';
import type { ScriptedReply } from '../../fixtures/llm-server';
import type { AgentHarness } from '../../support/agent-harness';
import { installed } from '../../support/installed';
import { findColour, lastScreenshot } from '../../support/png-pixels';
import { useAgentHarness } from '../../support/use-agent-harness';
import { useXvfb } from '../../support/xvfb';

// Computer use through whole turns (docs/computer-use.md): a real X server (Xvfb) at an odd size larger
// than either provider takes, so every screenshot is scaled by a factor that is not a whole number; a
// real X program (test/fixtures/computer/tk-form.py); the scripted model aiming at the form's parts
// where it finds them in the screenshot it was sent — so a click lands only if the mapping from the
// scaled image to the real screen is exact.

// Many short X programs a turn: on a loaded machine each waits its turn for a core.
vi.setConfig({ testTimeout: 240_000 });

const canRun = process.platform === 'linux' && installed('Xvfb') && installed('xdotool') && installed('xwd');
const SCREEN = { width: 1601, height: 1001 };
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];

const x = useXvfb(canRun, { ...SCREEN, tmpPrefix: 'oi-computer-' });
// After each test the harness is closed and the screen reset (useXvfb): a test that holds the pointer
// in a corner (the person's stop gesture) would otherwise leave it there to stop the next one.
const startHarness = useAgentHarness();

function call(args: Record<string, unknown>): ScriptedReply {
  return { kind: 'tool', calls: [{ name: 'computer', arguments: args }] };
}

type Part = { x: number; y: number };
type Plan = (form: { field: Part; box: Part; submit: Part }) => Array<Record<string, unknown>>;

/** Fill the field with `text`, tick the box, press Submit. */
const fillAndSubmit =
  (text: string): Plan =>
  ({ field, box, submit }) => [
    { action: 'click', ...field },
    { action: 'type', text },
    { action: 'click', ...box },
    { action: 'click', ...submit },
  ];

/**
 * A model that works the form: a screenshot first; then, from that screenshot, the plan's calls, aimed
 * at the parts where it finds them in the image it was sent (its second request is answered only once
 * it is seen). `onPlan` is what the person does meanwhile.
 */
async function formHarness(
  protocol: 'openai' | 'anthropic',
  plan: Plan,
  onPlan?: () => void,
  computer = new ComputerService({ pids: [], windowIds: [] }, { DISPLAY: x.display }, 300),
) {
  let seen = 0;
  let harness: AgentHarness | null = null;
  harness = await startHarness({
    protocol,
    rerunExports: false, // a computer cell acts on a screen, which a notebook re-run has not got
    computer,
    llm: {
      onRequest: (request) => {
        if (request.protocol === 'other' || !JSON.stringify(request.body).includes('computer')) return;
        seen++;
        if (seen !== 2) return;
        onPlan?.();
        const shot = lastScreenshot(request);
        const [field, box, submit] = [findColour(shot, RED), findColour(shot, GREEN), findColour(shot, BLUE)];
        if (!field || !box || !submit) throw new Error('the form is not in the screenshot');
        const calls = plan({ field, box, submit }).map((args) => ({ name: 'computer', arguments: args }));
        harness?.llm.enqueue({ kind: 'tool', calls }, { kind: 'text', text: 'The form is sent.' });
      },
    },
  });
  harness.llm.enqueue(call({ action: 'screenshot' }));
  const id = await harness.newConversation();
  await harness.agent.update(id, (conv) => {
    conv.computerUse = true;
  });
  return { harness, id };
}

/** Answers each approval as `answer` says, until the turn ends. */
function approveAs(harness: AgentHarness, id: string, answer: (cell: CellItem) => 'run' | 'always' | 'skip'): void {
  const answered = new Set<string>();
  const next = (): void => {
    void harness
      .waitFor('cell.awaiting-approval', (p) => p.conversationId === id && !answered.has(p.cell.id))
      .then(({ cell }) => {
        answered.add(cell.id);
        const decision = answer(cell);
        if (decision === 'skip') harness.agent.skip(id, cell.id, false);
        else harness.agent.approve(id, cell.id, null, decision === 'always');
        next();
      });
  };
  next();
}

describe.skipIf(!canRun)('computer use under Xvfb', () => {
  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`fills and submits a real X form through full turns (${protocol})`, async () => {
      const out = path.join(x.tmp, `form-${protocol}.json`);
      await x.startForm(out);
      const started = await formHarness(protocol, fillAndSubmit(`hello from ${protocol}`));
      const h = started.harness;
      // The first action asks; "allow for this task" lets the rest of the turn run unasked.
      approveAs(h, started.id, () => 'always');
      await h.send(started.id, 'Fill in the form and send it.');
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ text: `hello from ${protocol}`, checked: true });
      expect(h.payloads('cell.awaiting-approval')).toHaveLength(1);
      const bodies = h.bodies();
      // The tool is offered, and the screenshot is scaled to what the provider takes (never the screen's own size).
      expect(JSON.stringify(bodies[0])).toContain('"computer"');
      const shot = lastScreenshot({ body: bodies[1] });
      expect(shot.width).toBeLessThan(SCREEN.width);
      if (protocol === 'anthropic') {
        const results = (bodies[1] as { messages: Array<{ content: unknown }> }).messages.at(-1)?.content as Array<Record<string, unknown>>;
        expect(results[0]).toMatchObject({
          type: 'tool_result',
          content: [{ type: 'text' }, { type: 'image', source: { type: 'base64', media_type: 'image/png' } }],
        });
      } else {
        const messages = (bodies[1] as { messages: Array<{ role: string; content: unknown }> }).messages;
        expect(messages.at(-2)?.role).toBe('tool');
        expect(messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text' }, { type: 'image_url' }] });
      }
      // The cells keep their screenshots.
      const conv = await h.agent.snapshot(started.id);
      const cells = conv.items.filter((i): i is CellItem => i.kind === 'cell');
      expect(cells.map((c) => c.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
      expect(cells.every((c) => c.outputs.some((o) => o.output_type === 'display_data' && 'image/png' in o.data))).toBe(true);
      // A notebook gets each action as a markdown cell with its screenshot as an image attachment.
      const notebook = exportNotebook(conv, { appVersion: 'test', provider: protocol, model: 'm' });
      const text = (source: string | string[]) => (Array.isArray(source) ? source.join('') : source);
      const shown = notebook.cells.flatMap((c) => (c.cell_type === 'markdown' && text(c.source).startsWith('**Computer use**') ? [c] : []));
      expect(shown).toHaveLength(5);
      expect(shown[0]?.attachments?.['screenshot-1.png']?.['image/png']).toEqual(expect.stringMatching(/^iVBORw0KGgo/));
      expect(text(shown[0]?.source ?? '')).toContain('![screenshot-1.png](attachment:screenshot-1.png)');
    });
  }

  it('does nothing the person declined, and asks for every action even with auto-run on', async () => {
    const out = path.join(x.tmp, 'declined.json');
    await x.startForm(out);
    const started = await formHarness('openai', ({ box, submit }) => [
      { action: 'type', text: 'must not be typed' },
      { action: 'click', ...box },
      { action: 'click', ...submit },
    ]);
    const h = started.harness;
    await h.agent.update(started.id, (conv) => {
      conv.autoRun = true;
    });
    approveAs(h, started.id, (cell) => (cell.code.includes('"type"') ? 'skip' : 'run'));
    await h.send(started.id, 'Fill in the form and send it.');
    // The form was sent (the other actions ran) without the declined text.
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ text: '', checked: true });
    expect(h.payloads('cell.awaiting-approval')).toHaveLength(4);
    const typed = (await h.agent.snapshot(started.id)).items.find((i): i is CellItem => i.kind === 'cell' && i.code.includes('"type"'));
    expect(typed?.status).toBe('skipped');
    expect(typed?.resultForModel).toBe('The user declined this action; nothing was done.');
  });

  it('stops the turn when the person holds the pointer in a screen corner', async () => {
    const out = path.join(x.tmp, 'cornered.json');
    await x.startForm(out);
    // The person takes the pointer to the top left corner while the model is deciding its next actions.
    const started = await formHarness('anthropic', fillAndSubmit('never sent'), () => x.run('xdotool', ['mousemove', '0', '0']));
    const h = started.harness;
    approveAs(h, started.id, () => 'always');
    // Held there, the pointer stops the turn before the form is sent.
    await h.send(started.id, 'Fill in the form and send it.');
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('stopped');
    expect(h.payloads('notice').map((n) => n.item.text)).toContain('Computer use stopped: the pointer was held in a corner of the screen.');
    expect(existsSync(out)).toBe(false);
  });

  it('stops the turn when the person presses the stop shortcut', async () => {
    const out = path.join(x.tmp, 'shortcut.json');
    await x.startForm(out);
    // Electron's globalShortcut is a stand-in (no Electron here) that holds what is registered; the
    // binding, the service and the turn are the desktop app's own.
    const held = new Map<string, () => void>();
    const shortcuts = {
      register: (accelerator: string, press: () => void) => (held.set(accelerator, press), true),
      unregister: (accelerator: string) => void held.delete(accelerator),
    };
    const heldWhilePlanning: boolean[] = [];
    const computer = new ComputerService({ pids: [], windowIds: [] }, { DISPLAY: x.display }, 300);
    // The person presses it while the model is deciding its next actions.
    const press = () => {
      const stop = held.get(COMPUTER_STOP_ACCELERATOR);
      heldWhilePlanning.push(stop !== undefined);
      stop?.();
    };
    const started = await formHarness('openai', fillAndSubmit('never sent'), press, computer);
    const h = started.harness;
    const unbind = bindComputerStopShortcut(shortcuts, h.bus, (notice) => computer.stopAll(notice));
    approveAs(h, started.id, () => 'always');
    await h.send(started.id, 'Fill in the form and send it.');
    unbind();
    expect(heldWhilePlanning).toEqual([true]);
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('stopped');
    expect(h.payloads('notice').map((n) => n.item.text)).toContain(SHORTCUT_STOP_NOTICE);
    expect(existsSync(out)).toBe(false);
    // Released once the turn gave the screen back: the combination is the person's programs' again.
    expect(held.size).toBe(0);
  });

  it('refuses to act while a screen locker is on the screen, and sends no screenshot', async () => {
    // A window of a screen locker's X class (i3lock's), mapped as a locker maps it.
    await x.startForm(path.join(x.tmp, 'locker'), { className: 'i3lock', color: '#202020' });
    const h = await startHarness({
      rerunExports: false, // nothing ran
      computer: new ComputerService({ pids: [], windowIds: [] }, { DISPLAY: x.display }),
    });
    h.llm.enqueue(call({ action: 'screenshot' }), { kind: 'text', text: 'The screen is locked.' });
    const id = await h.newConversation();
    await h.agent.update(id, (conv) => {
      conv.computerUse = true;
    });
    approveAs(h, id, () => 'run');
    await h.send(id, 'Look at the screen.');
    const cell = (await h.agent.snapshot(id)).items.find((i): i is CellItem => i.kind === 'cell');
    expect(cell?.status).toBe('failed');
    expect(cell?.resultForModel).toBe(
      'Not done: the screen is locked (a screen locker’s window is on the screen). Computer use never acts on a locked screen.',
    );
    expect(JSON.stringify(h.bodies()[1])).not.toContain('image_url');
  });

  it('lets a beforeCell hook refuse an action before the person is asked', async () => {
    const refuse = `/bin/bash '${path.resolve(import.meta.dirname, '../../fixtures/hooks/refuse.sh')}'`;
    const h = await startHarness({
      rerunExports: false, // nothing ran
      settings: { hooks: { beforeCell: [{ command: refuse, timeoutSeconds: 60 }] } },
      computer: new ComputerService({ pids: [], windowIds: [] }, { DISPLAY: x.display }),
    });
    h.llm.enqueue(call({ action: 'type', text: 'the forbidden words' }), { kind: 'text', text: 'Refused.' });
    const id = await h.newConversation();
    await h.agent.update(id, (conv) => {
      conv.computerUse = true;
    });
    await h.send(id, 'Type it.');
    const cell = (await h.agent.snapshot(id)).items.find((i): i is CellItem => i.kind === 'cell');
    expect(cell?.status).toBe('skipped');
    expect(cell?.resultForModel).toContain('files named forbidden are off limits in this project');
    expect(h.payloads('cell.awaiting-approval')).toEqual([]);
    expect(h.payloads('computer.action').map((a) => a.phase)).not.toContain('doing');
  });
});
