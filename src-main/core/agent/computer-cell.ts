import { errorMessage, type CellItem, type Conversation, type NoticeItem, type Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { ComputerAnswer } from '../exec';
import { ComputerControl, ComputerRefusal, CornerStop, inCorner, type ListedWindow, type OwnWindows } from '../computer/computer-control';
import { COMPUTER_LANGUAGE, describeAction, parseComputerAction } from '../llm/computer-tool';
import { imageLimitFor } from '../computer/screen-geometry';
import { x11Support, X11Screen } from '../computer/x11-screen';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { whileRunning } from './run-cell';
import { allowedTool, approve, finishCell, type CellGuard, type CodeComputer } from './turn-cell';
import { addItem, addNoticeItem } from './conversation-changes';
import { newCell } from '../conversations/new-cell';

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

export class ComputerService implements CodeComputer {
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
    // No turn has the screen: its xdotool ends too (the next action starts one), so nothing of the
    // app stays connected to the X server between tasks.
    if (this.turns.size === 0) this.screen?.close();
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
    /** The person's beforeCell hooks (as for code): a hook may refuse the action before anyone is asked. */
    guard?: CellGuard,
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
    const refused = guard ? await guard(cell) : null;
    if (refused !== null) {
      finishCell(live, events, cell, 'skipped', refused);
      return 'done';
    }
    const what = describeAction(parsed.action);
    const state = this.state(conversationId);
    this.watchCorners(live, events, state);
    events.emit('computer.action', { conversationId, cellId: cell.id, text: what, phase: 'asking' });
    // Auto-run never covers the screen: only the person's "allow for this task" does, for this turn.
    const decision = state.allowedForTask
      ? allowedTool(cell)
      : await approve(live, events, settings, cell, signal, { mustAsk: true, onAlways: () => (state.allowedForTask = true) });
    if (decision !== 'run') {
      const told = notDoneText(decision);
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
      cell.outputs = actionOutputs(result);
      const told = actionReport(result);
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
   * A screen action the code of `parent` (a running Python cell) asked for (docs/computer-use.md#in-code):
   * refused unless the person turned computer use on for this conversation; otherwise a computer cell
   * of its own after the code's, asked for, shown in the banner and done exactly as the model's call
   * would be. What the code is answered: what was done (or why not) and the screenshot after it.
   */
  async codeAction(
    live: LiveConversation,
    events: EventBus,
    settings: Settings,
    parent: CellItem,
    action: Record<string, unknown>,
    signal: AbortSignal,
    guard?: CellGuard,
  ): Promise<ComputerAnswer> {
    if (!this.screen || this.support.available === false)
      return { ok: false, text: `Not done: ${this.support.available ? 'computer use is not available here' : this.support.reason}` };
    if (live.conv.computerUse !== true)
      return {
        ok: false,
        text: 'Not done: computer use is off in this conversation (only the person can turn it on, with the Computer switch).',
      };
    if (live.conv.planMode === true)
      return { ok: false, text: 'Not done: the conversation is in plan mode, where nothing acts on the screen.' };
    const cell: CellItem = {
      ...newCell({ id: newId(), step: parent.step, toolCallId: null, language: COMPUTER_LANGUAGE, code: '', status: 'running' }),
      fromCell: parent.id,
    };
    addItem(live.conv, events, cell);
    // The action's cell takes the running cell's place (its Stop ends the action) and gives it back.
    const [controller, runningCellId] = [live.runController, live.runningCellId];
    try {
      await this.runCell(live, events, settings, cell, JSON.stringify(action), signal, guard);
    } finally {
      live.runController = controller;
      live.runningCellId = runningCellId;
    }
    const told = cell.resultForModel ?? 'Not done.';
    if (cell.status !== 'done') return { ok: false, text: told };
    const output = cell.outputs[0];
    const png = output?.output_type === 'display_data' ? output.data['image/png'] : undefined;
    const meta =
      output?.output_type === 'display_data'
        ? (output.metadata?.computer as { width?: number; height?: number; windows?: ListedWindow[] } | undefined)
        : undefined;
    return {
      ok: true,
      text: told,
      ...(typeof png === 'string' && meta?.width && meta.height ? { shot: { png, width: meta.width, height: meta.height } } : {}),
      ...(meta?.windows ? { windows: meta.windows } : {}),
    };
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
    state.watch = setInterval(() => {
      if (busy) return;
      busy = true;
      void (async () => {
        const { pointer, size } = await screen.pointer();
        held = inCorner(pointer, size) ? held + 1 : 0;
        if (held >= CORNER_POLLS) this.stopTurn(live, events, state, new CornerStop().message);
      })()
        .catch(() => null)
        .finally(() => (busy = false));
    }, CORNER_POLL_MS);
  }
}

type ActionResult = Awaited<ReturnType<ComputerControl['perform']>>;

/** What the model is told when an action was not done, by the approval's outcome. */
function notDoneText(decision: string): string {
  if (decision === 'stop') return 'Not done: the user stopped the turn.';
  if (decision === 'unasked') return 'Not done: nobody could be asked to approve it, and computer actions are never done unasked.';
  return 'The user declined this action; nothing was done.';
}

/** The cell's output: the screenshot after the action (kept with the cell, exported as an image), or its text. */
function actionOutputs(result: ActionResult): CellItem['outputs'] {
  const { shot } = result;
  if (!shot) {
    const windows = result.windows ? { windows: result.windows } : {};
    return [{ output_type: 'display_data', data: { 'text/plain': result.detail ?? '' }, metadata: { computer: windows } }];
  }
  const what = shot.window === undefined ? 'screen' : `window ${shot.window}`;
  return [
    {
      output_type: 'display_data',
      data: {
        'image/png': shot.png.toString('base64'),
        'text/plain': `[screenshot ${shot.width}×${shot.height} of the ${shot.realWidth}×${shot.realHeight} ${what}]`,
      },
      metadata: { computer: { width: shot.width, height: shot.height } },
    },
  ];
}

/** What the model is told of a done action: what was done, and how to read the attached screenshot's pixels. */
function actionReport(result: ActionResult): string {
  const { shot } = result;
  const detail = result.detail ? `\n${result.detail}` : '';
  if (!shot) return `${result.done}: done.${detail}`;
  const of = shot.window !== undefined ? ` of window ${shot.window} alone, its top left corner at 0,0` : '';
  const note = shot.note ? `Note: ${shot.note}. ` : '';
  return `${result.done}: done.${detail}${result.detail ? '\n' : ' '}${note}The screenshot after it is attached (${shot.width}×${shot.height}${of}; x and y are pixels of this image).`;
}
