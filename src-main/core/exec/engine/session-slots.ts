import type { LanguageDefinition, Runtime } from '../languages/language';
import { findLanguage } from '../languages/registry';
import { shell } from '../languages/shell';
import { zsh } from '../languages/zsh';
import { diedWhileIdleMessage, runtimeChangedMessage } from '../output/messages';
import type { Session, SessionRoute } from '../session/session-types';
import { askedAs } from '../shell/shell-choice';
import type { RunControl } from './run-control';
import { RunQueue } from './run-queue';

// The engine's table of sessions: one slot per (conversation, language), holding the live session
// (started lazily, replaced when it died or no longer fits), its run queue, its execution count and
// the runs going on in it. Also which session a way of naming a language last reached, so interrupt()
// and restart() find the shell a `shell` cell really ran in.

export interface SessionSlot {
  readonly conversationId: string;
  readonly language: string;
  session: Promise<Session> | null;
  /** Runs in one session go one at a time, in order. */
  readonly queue: RunQueue;
  executionCount: number;
  /** The runs going on, each with how its cell named the language (askedAs in shell-choice.ts). */
  readonly active: Map<RunControl, string>;
  /** A note for the next run that the previous session ended by itself or was replaced. */
  pendingNote: string | null;
  /** The route the live session was started on (session-router.ts). */
  routeKey: string | null;
  /** The runtime the live session was started with; another one (pythonPath changed) means a new session. */
  runtimeCommand: string | null;
}

export class SessionSlots {
  private readonly slots = new Map<string, SessionSlot>();
  /** Per conversation and way of naming a language (askedAs), the session its last run went to. */
  private readonly resolved = new Map<string, string>();
  /** Per conversation, the runs asked for and not yet over, and when the last one was asked or ended. */
  private readonly use = new Map<string, { inFlight: number; lastUsed: number }>();

  /** A run of the conversation was asked for; the returned function says it is over. Its sessions are in use meanwhile. */
  using(conversationId: string, now = Date.now()): () => void {
    const use = this.use.get(conversationId) ?? { inFlight: 0, lastUsed: now };
    use.inFlight++;
    use.lastUsed = now;
    this.use.set(conversationId, use);
    let over = false;
    return () => {
      if (over) return;
      over = true;
      use.inFlight--;
      use.lastUsed = Math.max(use.lastUsed, Date.now());
    };
  }

  /**
   * Ends the local and sandboxed sessions of every conversation with no run asked for since
   * `idleSince` and none going on or waiting, unless `keep` says it is in use another way (a turn,
   * a question to the person). Each slot keeps `note` for its next run, which starts a new session.
   * Remote kernels are left alone: they hold no memory here, and ending one would end it on its
   * server. Returns the conversations whose sessions were ended.
   */
  async endIdle(idleSince: number, keep: (conversationId: string) => boolean, note: (language: string) => string): Promise<string[]> {
    const verdicts = new Map<string, boolean>();
    const idle = (conversationId: string): boolean => {
      let verdict = verdicts.get(conversationId);
      if (verdict === undefined) {
        const use = this.use.get(conversationId);
        verdict = !!use && use.inFlight === 0 && use.lastUsed < idleSince && !keep(conversationId);
        verdicts.set(conversationId, verdict);
      }
      return verdict;
    };
    const ending: Array<Promise<void>> = [];
    const ended = new Set<string>();
    for (const slot of this.slots.values()) {
      if (!slot.session || slot.active.size > 0 || slot.routeKey?.startsWith('remote:')) continue;
      if (!idle(slot.conversationId)) continue;
      // Cleared before anything is awaited, so a run asked for meanwhile starts a new session.
      const session = slot.session;
      slot.session = null;
      slot.executionCount = 0;
      slot.pendingNote = note(slot.language);
      ended.add(slot.conversationId);
      ending.push(endSlot(slot, session));
    }
    await Promise.all(ending);
    return [...ended];
  }

  slotFor(conversationId: string, language: string): SessionSlot {
    const key = keyOf(conversationId, language);
    let slot = this.slots.get(key);
    if (!slot) {
      slot = {
        conversationId,
        language,
        session: null,
        queue: new RunQueue(),
        executionCount: 0,
        active: new Map(),
        pendingNote: null,
        routeKey: null,
        runtimeCommand: null,
      };
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** Cells naming a language as `asked` in this conversation now run in `language`'s session. */
  remember(conversationId: string, asked: string, language: string): void {
    this.resolved.set(keyOf(conversationId, asked), language);
  }

  /** Ctrl-C for the runs of a conversation: all of them, or those a language name reaches (named()). */
  interrupt(conversationId: string, language?: string): void {
    const wanted = language === undefined ? null : this.named(conversationId, language);
    if (language !== undefined && !wanted) return;
    for (const slot of this.slots.values()) {
      if (slot.conversationId !== conversationId) continue;
      const inSession = !wanted || wanted.languages.includes(slot.language);
      // A run started before the name resolved elsewhere (exec.shell changed) is still reached.
      for (const [control, asked] of slot.active) if (inSession || asked === wanted?.asked) control.stop('interrupted');
    }
  }

  /** Ends the session(s) a language name reaches; the next run starts a new one, counting from 1. */
  async restart(conversationId: string, language: string): Promise<void> {
    const wanted = this.named(conversationId, language);
    await Promise.all(
      (wanted?.languages ?? []).map(async (name) => {
        const slot = this.slots.get(keyOf(conversationId, name));
        if (!slot) return;
        const session = slot.session;
        slot.session = null;
        slot.executionCount = 0;
        slot.pendingNote = null;
        await endSlot(slot, session);
      }),
    );
  }

  /** Forgets a conversation: its runs are stopped and its sessions disposed. */
  async close(conversationId: string): Promise<void> {
    const closing = [...this.slots.entries()].filter(([, slot]) => slot.conversationId === conversationId);
    for (const key of [...this.resolved.keys()]) if (key.startsWith(keyOf(conversationId, ''))) this.resolved.delete(key);
    for (const [key] of closing) this.slots.delete(key);
    this.use.delete(conversationId);
    await Promise.all(closing.map(([, slot]) => endSlot(slot, slot.session)));
  }

  async closeAll(): Promise<void> {
    const all = [...this.slots.values()];
    this.slots.clear();
    this.resolved.clear();
    this.use.clear();
    await Promise.all(all.map((slot) => endSlot(slot, slot.session)));
  }

  /**
   * The sessions a language name reaches for interrupt() and restart(): where cells naming it that
   * way last ran (a `shell` cell in zsh, a `zsh` cell in bash without zsh), else where it would
   * normally run — for a generic shell name before any such cell ran, either shell.
   */
  private named(conversationId: string, name: string): { asked: string; languages: string[] } | null {
    const named = findLanguage(name);
    if (!named) return null;
    const asked = askedAs(name, named);
    const last = this.resolved.get(keyOf(conversationId, asked));
    if (last) return { asked, languages: [last] };
    return { asked, languages: asked === named.name ? [named.name] : [shell.name, zsh.name] };
  }
}

/**
 * The slot's live session for this run: the one it has while it is alive and was started on the
 * same route with the same runtime, else a new one from `start` — leaving a note for the run that
 * the earlier state is gone and why.
 */
export async function liveSession(
  slot: SessionSlot,
  language: LanguageDefinition,
  runtime: Runtime,
  route: SessionRoute,
  start: () => Promise<Session>,
): Promise<Session> {
  if (slot.session) {
    const existing = await slot.session.catch(() => null);
    const sameRuntime = slot.runtimeCommand === runtime.command;
    if (existing?.alive && slot.routeKey === route.key && sameRuntime) return existing;
    if (existing?.alive && slot.routeKey !== route.key)
      slot.pendingNote = `Note: the ${language.name} session was restarted to run ${route.label}, so earlier state is gone.`;
    else if (existing?.alive && !sameRuntime) slot.pendingNote = runtimeChangedMessage(language.name, runtime.command);
    if (existing?.diedWhileIdle) slot.pendingNote = diedWhileIdleMessage(language.name, existing.diedWhileIdle);
    await existing?.dispose().catch(() => undefined);
    slot.session = null;
  }
  slot.routeKey = route.key;
  const started = start();
  slot.session = started;
  slot.runtimeCommand = runtime.command;
  started.catch(() => {
    if (slot.session === started) slot.session = null;
  });
  return started;
}

/** Stops the slot's runs and disposes `session` (what the slot held before it was cleared). */
async function endSlot(slot: SessionSlot, session: Promise<Session> | null): Promise<void> {
  for (const control of slot.active.keys()) control.stop('interrupted');
  const s = await session?.catch(() => null);
  await s?.dispose().catch(() => undefined);
}

const keyOf = (conversationId: string, language: string): string => `${conversationId}\u0000${language}`;
