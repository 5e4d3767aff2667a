import { errorMessage, type CellItem, type Conversation, type NoticeItem, type Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { ComputerControl, ComputerRefusal, CornerStop, inCorner, type OwnWindows } from '../computer/computer-control';
import { COMPUTER_LANGUAGE, describeAction, parseComputerAction } from '../llm/computer-tool';
import { imageLimitFor } from '../computer/screen-geometry';
import { x11Support, X11Screen } from '../computer/x11-screen';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { whileRunning } from './run-cell';
import { allowedTool, approve, finishCell } from './turn-cell';
import { addNoticeItem } from './conversation-changes';

// Computer use in a turn (docs/computer-use.md): the `computer` tool offered only when the person turned
// it on for the conversation and the model sees images; each action asked for (auto-run does not
// cover it) unless the person chose "allow for this task"; the banner told of each action; the pointer
// held in a screen corner stops the turn.

/** How often the pointer is looked at for the corner gesture while the agent has the screen. */
const CORNER_POLL_MS = 150;
/** Polls in a row the pointer must sit in a corner: held, not passed through. */
const CORNER_POLLS = 2;

interface TurnState {
  /** "Allow for this task": the person let the rest of this turn's actions run unasked. */
  allowedForTask: boolean;
  control: ComputerControl;
  watch: ReturnType<typeof setInterval> | null;
  /** The turn that has the screen, from its first action: what a stop (corner, global shortcut) ends. */
  live: LiveConversation | null;
  events: EventBus | null;
}

export type ComputerSupport = { available: true } | { available: false; reason: string };

export class ComputerService {
  private readonly turns = new Map<string, TurnState>();
  private readonly screen: X11Screen | null;
  readonly support: ComputerSupport;

  constructor(
    private readonly own: OwnWindows,
    env: NodeJS.ProcessEnv = process.env,
    private readonly settleMs?: number,
  ) {
    const found = x11Support(env);
    this.screen = found.available ? new X11Screen(found.target) : null;
    this.support = found.available ? { available: true } : { available: false, reason: found.reason };
  }

  /** Whether a model call of this conversation gets the tool: turned on here, possible here, a model that sees, tools on. */
  offered(conv: Conversation, vision: boolean, tools: boolean): boolean {
    // Not in plan mode: an action on the screen changes things, and no sandbox holds it.
    return this.screen !== null && conv.computerUse === true && conv.planMode !== true && vision && tools;
  }

  private state(conversationId: string): TurnState {
    let state = this.turns.get(conversationId);
    if (!state) {
      if (!this.screen) throw new Error('computer use is not available here');
      state = {
        allowedForTask: false,
        control: new ComputerControl(this.screen, this.own, this.settleMs),
        watch: null,
        live: null,
        events: null,
      };
      this.turns.set(conversationId, state);
    }
    return state;
  }

  /** The turn is over: the corner watch stops, "allow for this task" ends, the banner goes. */
  endTurn(conversationId: string, events: EventBus): void {
    const state = this.turns.get(conversationId);
    if (!state) return;
    if (state.watch) clearInterval(state.watch);
    this.turns.delete(conversationId);
    events.emit('computer.control', { conversationId, active: false });
  }

  /**
   * One computer call of the model: asked for, done, answered with a screenshot. Returns 'stop' when
   * the person stopped the turn, 'failed' when the action was refused or failed, else 'done'.
   */
  async runCell(
    live: LiveConversation,
    events: EventBus,
    settings: Settings,
    cell: CellItem,
    args: string,
    signal: AbortSignal,
  ): Promise<'done' | 'failed' | 'stop'> {
    const conversationId = live.conv.id;
    const parsed = parseComputerAction(args);
    cell.language = COMPUTER_LANGUAGE;
    cell.code = args;
    if (!parsed.ok || live.conv.computerUse !== true) {
      finishCell(live, events, cell, 'failed', `Error: ${parsed.ok ? 'computer use is off in this conversation' : parsed.error}`);
      return 'failed';
    }
    cell.code = JSON.stringify(parsed.action, null, 2);
    const what = describeAction(parsed.action);
    const state = this.state(conversationId);
    this.watchCorners(live, events, state);
    events.emit('computer.action', { conversationId, cellId: cell.id, text: what, phase: 'asking' });
    // Auto-run never covers the screen: only the person's "allow for this task" does, for this turn.
    const decision = state.allowedForTask
      ? allowedTool(cell)
      : await approve(live, events, settings, cell, signal, { mustAsk: true, onAlways: () => (state.allowedForTask = true) });
    if (decision !== 'run') {
      const told =
        decision === 'stop'
          ? 'Not done: the user stopped the turn.'
          : decision === 'unasked'
            ? 'Not done: nobody could be asked to approve it, and computer actions are never done unasked.'
            : 'The user declined this action; nothing was done.';
      if (decision === 'skip') cell.approval = 'declined';
      finishCell(live, events, cell, 'skipped', told);
      events.emit('computer.action', { conversationId, cellId: cell.id, text: what, phase: 'declined' });
      return decision === 'stop' ? 'stop' : 'done';
    }
    // Read again: the person may have edited the action at approval.
    const approved = parseComputerAction(cell.code);
    if (!approved.ok) {
      finishCell(live, events, cell, 'failed', `Error: ${approved.error}`);
      return 'failed';
    }
    events.emit('computer.action', { conversationId, cellId: cell.id, text: describeAction(approved.action), phase: 'doing' });
    try {
      const result = await whileRunning(live, cell, { events, settings }, signal, (s) =>
        state.control.perform(approved.action, imageLimitFor(settings.provider), s),
      );
      const { shot } = result;
      cell.outputs = [
        {
          output_type: 'display_data',
          data: {
            'image/png': shot.png.toString('base64'),
            'text/plain': `[screenshot ${shot.width}×${shot.height} of the ${shot.realWidth}×${shot.realHeight} screen]`,
          },
          metadata: { computer: { width: shot.width, height: shot.height } },
        },
      ];
      const told = `${result.done}: done. The screenshot after it is attached (${shot.width}×${shot.height}; x and y are pixels of this image).`;
      finishCell(live, events, cell, signal.aborted ? 'interrupted' : 'done', told);
      events.emit('computer.action', { conversationId, cellId: cell.id, text: result.done, phase: 'done' });
      return signal.aborted ? 'stop' : 'done';
    } catch (err) {
      if (err instanceof CornerStop) {
        finishCell(live, events, cell, 'skipped', `Not done: ${err.message}`);
        this.stopTurn(live, events, state, err.message);
        return 'stop';
      }
      const told = err instanceof ComputerRefusal ? err.message : `The action failed: ${errorMessage(err)}`;
      cell.outputs = [{ output_type: 'stream', name: 'stderr', text: `${told}\n` }];
      finishCell(live, events, cell, 'failed', told);
      events.emit('computer.action', { conversationId, cellId: cell.id, text: told, phase: 'refused' });
      return 'failed';
    }
  }

  /**
   * The person's stop from outside the window (the desktop app's global shortcut): every turn that has
   * the screen ends at once, with `text` as its notice. How many were stopped.
   */
  stopAll(text: string): number {
    let stopped = 0;
    for (const state of this.turns.values()) {
      if (!state.live || !state.events || !state.live.turn || state.live.turn.controller.signal.aborted) continue;
      this.stopTurn(state.live, state.events, state, text);
      stopped++;
    }
    return stopped;
  }

  /** A stop gesture: the turn ends at once, and the person is told why. */
  private stopTurn(live: LiveConversation, events: EventBus, state: TurnState, text: string): void {
    if (state.watch) clearInterval(state.watch);
    state.watch = null;
    if (!live.turn || live.turn.controller.signal.aborted) return;
    const item: NoticeItem = { kind: 'notice', id: newId(), level: 'warning', text, createdAt: now() };
    addNoticeItem(live.conv, events, item);
    live.turn.controller.abort();
  }

  /** From the turn's first action: the pointer held in a screen corner stops the turn at once. */
  private watchCorners(live: LiveConversation, events: EventBus, state: TurnState): void {
    if (state.watch || !this.screen) return;
    state.live = live;
    state.events = events;
    events.emit('computer.control', { conversationId: live.conv.id, active: true });
    const screen = this.screen;
    let held = 0;
    let busy = false;
    let size: { width: number; height: number } | null = null;
    state.watch = setInterval(() => {
      if (busy) return;
      busy = true;
      void (async () => {
        size ??= await screen.displaySize();
        const p = await screen.pointer();
        held = inCorner(p, size) ? held + 1 : 0;
        if (held >= CORNER_POLLS) this.stopTurn(live, events, state, new CornerStop().message);
      })()
        .catch(() => null)
        .finally(() => (busy = false));
    }, CORNER_POLL_MS);
  }
}
