import { describe, expect, it } from 'vitest';
import { RunControl } from '../../../../src-main/core/exec/engine/run-control';
import { liveSession, SessionSlots } from '../../../../src-main/core/exec/engine/session-slots';
import { findLanguage } from '../../../../src-main/core/exec/languages/registry';
import { diedWhileIdleMessage, runtimeChangedMessage } from '../../../../src-main/core/exec/output/messages';
import { FAKE_RUNTIME, FakeSession, fakeRoute } from '../../../support/fake-session';

const python = findLanguage('python')!;

/** A run going on in `session`, as the engine registers it in a slot. */
function activeRun(session: FakeSession): RunControl {
  return new RunControl(session, 60_000);
}

/** Conversation c1's Python slot, and a route that starts a new fake session each time. */
function pythonSlot() {
  return { slot: new SessionSlots().slotFor('c1', 'python'), route: fakeRoute(async () => new FakeSession()) };
}

describe('session slots', () => {
  it('keeps one slot per conversation and language', () => {
    const slots = new SessionSlots();
    const a = slots.slotFor('c1', 'python');
    expect(slots.slotFor('c1', 'python')).toBe(a);
    expect(slots.slotFor('c1', 'javascript')).not.toBe(a);
    expect(slots.slotFor('c2', 'python')).not.toBe(a);
  });

  it('reuses a live session started on the same route with the same runtime', async () => {
    const slot = new SessionSlots().slotFor('c1', 'python');
    const first = new FakeSession();
    const route = fakeRoute(async () => first);
    expect(await liveSession(slot, python, FAKE_RUNTIME, route, async () => first)).toBe(first);
    const again = await liveSession(slot, python, FAKE_RUNTIME, route, async () => new FakeSession());
    expect(again).toBe(first);
    expect(slot.pendingNote).toBeNull();
  });

  it('replaces the session when the route changes, saying that earlier state is gone', async () => {
    const slot = new SessionSlots().slotFor('c1', 'python');
    const local = new FakeSession();
    await liveSession(
      slot,
      python,
      FAKE_RUNTIME,
      fakeRoute(async () => local, { key: 'local' }),
      async () => local,
    );
    const sandboxed = new FakeSession();
    const got = await liveSession(
      slot,
      python,
      FAKE_RUNTIME,
      fakeRoute(async () => sandboxed, { key: 'sandbox', label: 'in the sandbox' }),
      async () => sandboxed,
    );
    expect(got).toBe(sandboxed);
    expect(local.disposed).toBe(true);
    expect(slot.pendingNote).toBe('Note: the python session was restarted to run in the sandbox, so earlier state is gone.');
  });

  it('replaces the session when the runtime changes', async () => {
    const { slot, route } = pythonSlot();
    const old = await liveSession(slot, python, FAKE_RUNTIME, route, async () => new FakeSession());
    const other = { command: '/other/python', version: '3.13' };
    const next = await liveSession(slot, python, other, route, async () => new FakeSession());
    expect(next).not.toBe(old);
    expect(slot.pendingNote).toBe(runtimeChangedMessage('python', '/other/python'));
  });

  it('replaces a session that died while idle and tells the next run', async () => {
    const { slot, route } = pythonSlot();
    const dead = new FakeSession();
    await liveSession(slot, python, FAKE_RUNTIME, route, async () => dead);
    dead.alive = false;
    dead.diedWhileIdle = 'it was killed by SIGKILL';
    const next = await liveSession(slot, python, FAKE_RUNTIME, route, async () => new FakeSession());
    expect(next).not.toBe(dead);
    expect(slot.pendingNote).toBe(diedWhileIdleMessage('python', 'it was killed by SIGKILL'));
  });

  it('forgets a session that failed to start, so the next run tries again', async () => {
    const { slot, route } = pythonSlot();
    await expect(liveSession(slot, python, FAKE_RUNTIME, route, async () => Promise.reject(new Error('no python')))).rejects.toThrow(
      'no python',
    );
    expect(slot.session).toBeNull();
    const fresh = new FakeSession();
    expect(await liveSession(slot, python, FAKE_RUNTIME, route, async () => fresh)).toBe(fresh);
  });

  it('interrupts the runs of one conversation: all, or where a language name last ran', () => {
    const slots = new SessionSlots();
    const zshSession = new FakeSession({ onInterrupt: 'ignore' });
    const pySession = new FakeSession({ onInterrupt: 'ignore' });
    const otherConversation = new FakeSession({ onInterrupt: 'ignore' });
    const zshRun = activeRun(zshSession);
    const pyRun = activeRun(pySession);
    const otherRun = activeRun(otherConversation);
    slots.slotFor('c1', 'zsh').active.set(zshRun, 'shell');
    slots.slotFor('c1', 'python').active.set(pyRun, 'python');
    slots.slotFor('c2', 'zsh').active.set(otherRun, 'shell');
    slots.remember('c1', 'shell', 'zsh');
    try {
      slots.interrupt('c1', 'sh');
      expect([zshSession.interrupts, pySession.interrupts, otherConversation.interrupts]).toEqual([1, 0, 0]);
      slots.interrupt('c1');
      expect(pySession.interrupts).toBe(1);
      expect(otherConversation.interrupts).toBe(0);
      slots.interrupt('c1', 'no-such-language');
      expect(otherConversation.interrupts).toBe(0);
    } finally {
      for (const control of [zshRun, pyRun, otherRun]) control.settle();
    }
  });

  it('restart ends the session a name reaches and counts from 1 again', async () => {
    const slots = new SessionSlots();
    const slot = slots.slotFor('c1', 'python');
    const session = new FakeSession();
    await liveSession(
      slot,
      python,
      FAKE_RUNTIME,
      fakeRoute(async () => session),
      async () => session,
    );
    slot.executionCount = 4;
    slot.pendingNote = 'stale';
    await slots.restart('c1', 'py');
    expect(session.disposed).toBe(true);
    expect(slot).toMatchObject({ session: null, executionCount: 0, pendingNote: null });
  });

  it("closing a conversation disposes its sessions and no other conversation's", async () => {
    const slots = new SessionSlots();
    const mine = new FakeSession();
    const theirs = new FakeSession();
    for (const [conversationId, session] of [
      ['c1', mine],
      ['c2', theirs],
    ] as const)
      await liveSession(
        slots.slotFor(conversationId, 'python'),
        python,
        FAKE_RUNTIME,
        fakeRoute(async () => session),
        async () => session,
      );
    await slots.close('c1');
    expect(mine.disposed).toBe(true);
    expect(theirs.disposed).toBe(false);
    expect(slots.slotFor('c1', 'python').session).toBeNull();
    await slots.closeAll();
    expect(theirs.disposed).toBe(true);
  });

  it('ends idle sessions, never those with a run asked for, going on or kept, nor remote kernels', async () => {
    const slots = new SessionSlots();
    const start = async (slot: ReturnType<SessionSlots['slotFor']>, key = 'local'): Promise<FakeSession> => {
      const session = new FakeSession();
      await liveSession(
        slot,
        python,
        FAKE_RUNTIME,
        fakeRoute(async () => session, { key }),
        async () => session,
      );
      return session;
    };
    const idle = await start(slots.slotFor('idle', 'python'));
    const asked = await start(slots.slotFor('asked', 'python'));
    const running = await start(slots.slotFor('running', 'python'));
    const kept = await start(slots.slotFor('kept', 'python'));
    const remote = await start(slots.slotFor('remote', 'python'), 'remote:http://k#python3');
    for (const id of ['idle', 'running', 'kept', 'remote']) slots.using(id, 1000)();
    const stillAsked = slots.using('asked', 1000);
    slots.slotFor('running', 'python').active.set(activeRun(running), 'python');

    const ended = await slots.endIdle(
      Number.MAX_SAFE_INTEGER,
      (id) => id === 'kept',
      (language) => `gone: ${language}`,
    );
    expect(ended).toEqual(['idle']);
    expect(idle.disposed).toBe(true);
    for (const s of [asked, running, kept, remote]) expect(s.disposed).toBe(false);
    const slot = slots.slotFor('idle', 'python');
    expect(slot).toMatchObject({ session: null, executionCount: 0, pendingNote: 'gone: python' });

    // Not idle long enough: a run asked for after idleSince counts as use.
    stillAsked();
    expect(
      await slots.endIdle(
        0,
        () => false,
        () => 'gone',
      ),
    ).toEqual([]);
    await slots.closeAll();
  });
});
