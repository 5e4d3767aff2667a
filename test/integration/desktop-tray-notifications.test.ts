import type { MenuItemConstructorOptions, NotificationConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { NotifyKind } from '@contract';
import { bindBackgroundTray, runningText, type TrayIcon } from '../../src-main/electron/background-tray';
import { bindOsNotifications } from '../../src-main/electron/notifications';
import type { AgentHarness } from '../support/agent-harness';
import { useAgentHarness } from '../support/use-agent-harness';

// The desktop shell's tray and OS notification (docs/ui.md#background-turns, #notifications), driven
// by real turns of the agent against the scripted model. Electron cannot run here: the Tray and
// Notification objects are stand-ins recording what the shell asks of them, the window a flag, as
// main.ts passes them; everything else is the app's own.

const startHarness = useAgentHarness();

interface Shown {
  options: NotificationConstructorOptions;
  click(): void;
}

/** The shell as main.ts wires it, with the window a flag and Electron's objects recorded. */
function desktop(harness: AgentHarness, notifyOn: NotifyKind[]) {
  const window = { open: true, focused: true };
  const notes: Shown[] = [];
  const trays: Array<{ tips: string[]; menus: MenuItemConstructorOptions[][]; destroyed: boolean; click?: () => void }> = [];
  const shownConversations: string[] = [];
  let allClosed = 0;
  const openWindow = () => {
    window.open = true;
    window.focused = true;
    tray.update();
  };
  const tray = bindBackgroundTray({
    events: harness.bus,
    createTray: (): TrayIcon => {
      const t: (typeof trays)[number] = { tips: [], menus: [], destroyed: false };
      trays.push(t);
      return {
        setToolTip: (text) => t.tips.push(text),
        setContextMenu: (menu) => t.menus.push(menu),
        on: (_e, listener) => (t.click = listener),
        destroy: () => (t.destroyed = true),
      };
    },
    hasWindow: () => window.open,
    openWindow,
    quit: () => undefined,
    allClosed: () => allClosed++,
  });
  const unbind = bindOsNotifications({
    events: harness.bus,
    notifyOn: () => notifyOn,
    supported: () => true,
    create: (options) => {
      const listeners: Record<string, () => void> = {};
      const note = {
        show: () => notes.push({ options, click: () => listeners.click?.() }),
        on: (event: 'click' | 'close', listener: () => void) => (listeners[event] = listener),
      };
      return note;
    },
    watching: () => window.open && window.focused,
    titleOf: async (id) => (await harness.agent.snapshot(id)).title,
    open: (conversationId) => {
      openWindow();
      shownConversations.push(conversationId);
    },
  });
  return {
    window,
    notes,
    trays,
    shownConversations,
    allClosed: () => allClosed,
    tray,
    /** The window closed, as main.ts's 'closed' and 'window-all-closed' handlers do. */
    closeWindow() {
      window.open = false;
      window.focused = false;
      tray.update();
      if (tray.running().size === 0) allClosed++;
    },
    dispose() {
      unbind();
      tray.dispose();
    },
  };
}

const shellCall = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code } }],
});

describe('the desktop shell while a turn runs', () => {
  it('notifies an approval when the window is not focused, opens that conversation on a click, and keeps running in the tray after the window closes', async () => {
    const h = await startHarness({ rerunExports: false });
    const shell = desktop(h, ['turn-done', 'turn-failed', 'approval', 'input']);
    const id = await h.newConversation();
    await h.newConversation(); // another conversation, the newest: the click must open the first
    h.llm.enqueue(shellCall('c1', 'echo from-the-tray'), { kind: 'text', text: 'Finished while you were away.' });
    // The person is in another program.
    shell.window.focused = false;
    void h.agent.send(id, 'run something', []);
    const { cell } = await h.waitFor('cell.awaiting-approval', (p) => p.conversationId === id);
    await expect.poll(() => shell.notes.length).toBe(1);
    const title = (await h.agent.snapshot(id)).title;
    expect(shell.notes[0]?.options).toEqual({ title, body: 'Code waits for your approval.' });
    shell.notes[0]?.click();
    expect(shell.shownConversations).toEqual([id]);
    expect(shell.window).toEqual({ open: true, focused: true });

    // Closed while the turn waits: the app stays, in the tray, saying so.
    shell.closeWindow();
    expect(shell.allClosed()).toBe(0);
    expect(shell.trays).toHaveLength(1);
    expect(shell.trays[0]?.tips.at(-1)).toBe(runningText(1));
    expect(shell.trays[0]?.menus.at(-1)?.[0]?.label).toBe('1 turn running');

    // The turn ends with the window closed: the notification says so, the icon goes, the app quits.
    h.agent.approve(id, cell.id, null, false);
    await h.agent.idle(id);
    await expect.poll(() => shell.notes.length).toBe(2);
    expect(shell.notes[1]?.options).toEqual({ title: (await h.agent.snapshot(id)).title, body: 'The turn finished.' });
    expect(shell.trays[0]?.destroyed).toBe(true);
    expect(shell.allClosed()).toBe(1);
    shell.notes[1]?.click();
    expect(shell.shownConversations).toEqual([id, id]);
    shell.dispose();
  });

  it('says nothing while the person watches the window or for moments Settings leave out; the tray reopens the window', async () => {
    const h = await startHarness({ rerunExports: false });
    const shell = desktop(h, ['turn-done', 'turn-failed']);
    const id = await h.newConversation();
    h.llm.enqueue(shellCall('c1', 'echo quiet'), { kind: 'text', text: 'Done.' });
    // Not watching, but approvals are left out of notifyOn.
    shell.window.focused = false;
    void h.agent.send(id, 'run something', []);
    const { cell } = await h.waitFor('cell.awaiting-approval', (p) => p.conversationId === id);
    shell.closeWindow();
    expect(shell.trays).toHaveLength(1);
    // A click on the icon brings the window back; the icon goes while the window is there.
    shell.trays[0]?.click?.();
    expect(shell.window.open).toBe(true);
    expect(shell.trays[0]?.destroyed).toBe(true);
    // The turn ends under the person's eyes: nothing to call them back for.
    h.agent.approve(id, cell.id, null, false);
    await h.agent.idle(id);
    expect(shell.notes).toEqual([]);
    // The window was open when the turn ended: closing it now quits as before.
    expect(shell.allClosed()).toBe(0);
    shell.closeWindow();
    expect(shell.allClosed()).toBe(1);
    expect(shell.trays).toHaveLength(1);
    shell.dispose();
  });
});
