import { EventEmitter } from 'node:events';
import type { App as ElectronApp } from 'electron';
import { describe, expect, it } from 'vitest';
import { conversationIdInLink, conversationLink } from '../../src-preload/contract/conversation-link';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { bindConversationLinks, ConversationLinks, conversationLinksIn } from '../../src-main/electron/conversation-links';
import { useCoreApps } from '../support/core-apps';
import { SANDBOX_CHOSEN_OFF } from '../support/sandbox-choice';

// open-interpreter://conversation/<id> (contract/conversation-link.ts): what a scheduled run's own
// notification hands the OS when clicked with the app closed (test/integration/schedules/os-notification.test.ts
// clicks one). The desktop app shows that conversation. The Electron binary cannot run here, so its side is
// a stand-in `app` firing `open-url` and `second-instance` with Electron's arguments; the core is the real one.

const apps = useCoreApps('oi-conversation-links-');

async function setUp() {
  const core = apps.app(new MemorySettingsStore({ ...SANDBOX_CHOSEN_OFF }));
  const conversation = await core.context.conversations.create('Morning report · 9:00', [], apps.tempDir());
  const shown: string[] = [];
  const emitter = new EventEmitter();
  const electron = {
    app: emitter as unknown as Pick<ElectronApp, 'on'>,
    openUrl(url: string): boolean {
      const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
      emitter.emit('open-url', event, url);
      return event.prevented;
    },
    secondInstance: (argv: string[]) => void emitter.emit('second-instance', {}, argv, '/', {}),
  };
  return {
    id: conversation.id,
    shown,
    electron,
    target: { dispatch: createDispatcher(core.handlers), show: (id: string) => void shown.push(id) },
  };
}

describe('conversation links', () => {
  it('reads exactly a link to a conversation, nothing more', () => {
    const id = 'c0ffee00-0000-4000-8000-000000000000';
    expect(conversationLink(id)).toBe(`open-interpreter://conversation/${id}`);
    expect(conversationIdInLink(`open-interpreter://conversation/${id}`)).toBe(id);
    expect(conversationIdInLink(`open-interpreter://conversation/${id}/`)).toBe(id);
    for (const other of [
      `open-interpreter://conversation/${id}?run=rm`,
      `open-interpreter://conversation/../settings`,
      `open-interpreter://notebook/${id}`,
      `https://conversation/${id}`,
      `open-interpreter://conversation/`,
      `x open-interpreter://conversation/${id}`,
    ])
      expect(conversationIdInLink(other), other).toBeNull();
    expect(() => conversationLink('a/b')).toThrow('"a/b" is not a conversation id');
  });

  it('shows the conversation a first launch was given, once the core is ready; flags and other arguments ignored', async () => {
    const { id, shown, target } = await setUp();
    const links = new ConversationLinks();
    await links.open(conversationLinksIn(['--no-sandbox', `open-interpreter://conversation/${id}`, 'notes.txt']));
    expect(shown).toEqual([]);
    await links.start(target);
    expect(shown).toEqual([id]);
  });

  it('a second launch or macOS’s open-url (taken, before the app is ready too) shows it; a link to no conversation of this app shows nothing', async () => {
    const { id, shown, target, electron } = await setUp();
    const links = new ConversationLinks();
    bindConversationLinks(electron.app, links);
    expect(electron.openUrl(`open-interpreter://conversation/${id}`)).toBe(true);
    await links.start(target);
    expect(shown).toEqual([id]);
    electron.secondInstance(['/opt/Open Interpreter Desktop/open-interpreter-desktop', `open-interpreter://conversation/${id}`]);
    await expect.poll(() => shown.length).toBe(2);
    // A web page can hand the OS any such link: an unknown id (or a malformed link) is ignored.
    expect(electron.openUrl('open-interpreter://conversation/0000dead-0000-4000-8000-000000000000')).toBe(true);
    electron.secondInstance(['/opt/app', 'open-interpreter://conversation/x?y', `open-interpreter://conversation/${id}`]);
    await expect.poll(() => shown.length).toBe(3);
    expect(shown).toEqual([id, id, id]);
  });
});
