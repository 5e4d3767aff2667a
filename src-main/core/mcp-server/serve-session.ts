import type { CellItem, CellStatus, Conversation, Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { addItem, setTitle, touch } from '../agent/conversation-changes';
import { newId, now } from '../agent/ids';
import {
  afterCellHooks,
  beforeCellHooks,
  conversationStartHooks,
  describeCell,
  needsPersonHooks,
  type TurnHookDeps,
} from '../agent/turn-hooks';
import type { ConversationStore } from '../conversations/conversation-store';
import { ConversationJournal } from '../conversations/conversation-journal';
import { type ExecService, type RunResult, Languages } from '../exec';
import { notebookTextOf } from '../notebook/notebook-files';
import { applyRunResult } from '../notebook/rerun';
import { newCell } from '../conversations/new-cell';

// One MCP client's side of `oi mcp`: a conversation of its own (so its sessions are its own: the
// engine keys sessions by conversation), each run recorded as a cell the way the agent records one,
// so notebook export is the app's own export and the desktop app can open what a client ran.

export interface ServeSessionDeps {
  exec: ExecService;
  conversations: ConversationStore;
  /** Where the conversation's changes are told (agent/conversation-changes.ts), as for any conversation. */
  events: EventBus;
  settings: () => Settings;
  /** The folder code runs in and files are confined to (already checked and real). */
  workspace: string;
  version: string;
  /** The app's resources folder (notebook export defines the runner helpers a notebook uses). */
  resourcesDir?: string;
  /**
   * The person's hooks, run as in a turn (docs/agent.md#hooks): conversationStart before the first
   * run, beforeCell before each (it may refuse, or ask the desktop app even with --auto-run),
   * needsPerson when the desktop app is asked, afterCell after each. Their notices are the events'.
   */
  hooks?: TurnHookDeps;
  /**
   * The journal's fdatasync on this thread (ConversationJournal's `syncOnCaller`): for the stdio
   * server, whose one client waits for the sync anyway and whose process serves nothing else meanwhile.
   */
  syncOnCaller?: boolean;
}

/** What the beforeCell hooks said of a run. */
export type HookVerdict = { kind: 'run' | 'ask' } | { kind: 'deny'; reason: string };

/** What `list_sessions` says about one language's session. */
export interface SessionState {
  language: string;
  runs: number;
  running: boolean;
  lastStatus: CellStatus | null;
  executionCount: number | null;
}

export class ServeSession {
  readonly conversation: Conversation;
  private saved = false;
  /** After the first run's whole save, each run is journalled and the file written behind (conversation-journal.ts). */
  private journal: ConversationJournal | null = null;
  /** The last run's afterCell hooks: run once its result has gone back, done before the next run's hooks. */
  private afterHooks: Promise<void> = Promise.resolve();
  private readonly states = new Map<string, SessionState>();
  private started = false;
  /** A session being started ahead of the first run (prepare); close() waits for it, so none is left behind. */
  private preparing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ServeSessionDeps) {
    const at = now();
    this.conversation = {
      version: 1,
      id: newId(),
      title: 'MCP client',
      createdAt: at,
      updatedAt: at,
      workspace: deps.workspace,
      items: [],
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      autoRun: false,
      // Marks it as another agent's record: `oi -c` (the last conversation) passes it over.
      mcpClient: 'client',
    };
  }

  rename(clientName: string): void {
    setTitle(this.conversation, this.deps.events, `MCP: ${clientName.slice(0, 100)}`);
    this.conversation.mcpClient = clientName.slice(0, 100);
  }

  get id(): string {
    return this.conversation.id;
  }

  /** The name the client gave when it initialized ('client' before). */
  get clientName(): string {
    return this.conversation.mcpClient ?? 'client';
  }

  /**
   * Starts this client's session of `language` before its first run, running nothing of the client's:
   * `oi mcp` starts Python while the SDK's server loads and the client shakes hands, rather than after
   * the first `execute` (docs/mcp.md#start-up). Not when a conversationStart or beforeCell hook is set
   * up: the first runs before the first run and may set up what the session starts with (a .venv), the
   * second may refuse the language altogether. Never throws; a session that cannot start is left for
   * the run to report. `onSpawn` is told once the session's process is started (ExecService.prepare).
   */
  prepare(language: string, onSpawn?: () => void): Promise<void> {
    const hooks = this.deps.hooks?.hooks;
    const where = { conversationId: this.id, workspace: this.deps.workspace };
    this.preparing = (async () => {
      if (hooks && ((await hooks.has('conversationStart', where)) || (await hooks.has('beforeCell', where)))) return;
      await this.deps.exec.prepare?.({
        ...where,
        language,
        code: '',
        settings: this.deps.settings().exec,
        ...(onSpawn ? { onSpawn } : {}),
      });
    })().catch(() => undefined);
    return this.preparing;
  }

  /** A run about to be asked for, as the cell it will be recorded as (its id is the hooks'). */
  draft(language: string, code: string): CellItem {
    const lang = Languages.findLanguage(language);
    if (!lang) throw new Error(`unknown language "${language}"; list_sessions names the languages this machine has`);
    return newCell({ id: newId(), step: newId(), toolCallId: null, language: lang.name, code, status: 'running' });
  }

  /** The beforeCell hooks' verdict on a drafted run (conversationStart's first, before the first run). */
  async beforeRun(cell: CellItem): Promise<HookVerdict> {
    const hooks = this.deps.hooks;
    if (!hooks) return { kind: 'run' };
    await this.afterHooks;
    if (!this.started) {
      this.started = true;
      await conversationStartHooks({ conv: this.conversation }, hooks);
    }
    return beforeCellHooks({ conv: this.conversation }, hooks, cell);
  }

  /** The desktop app is being asked about a drafted run: the needsPerson hooks. */
  askingPerson(cell: CellItem): void {
    if (this.deps.hooks) needsPersonHooks({ conv: this.conversation }, this.deps.hooks, 'approval', { cell: describeCell(cell) });
  }

  /** Runs code in this client's session of `language`; an unknown language is refused before anything starts. */
  async execute(
    language: string,
    code: string,
    signal?: AbortSignal,
    approval: 'auto' | 'user' = 'auto',
    drafted?: CellItem,
  ): Promise<RunResult> {
    const lang = Languages.findLanguage(language);
    if (!lang) throw new Error(`unknown language "${language}"; list_sessions names the languages this machine has`);
    const state = this.stateOf(lang.name);
    const startedAt = now();
    state.running = true;
    let result: RunResult;
    try {
      result = await this.deps.exec.run({
        conversationId: this.id,
        workspace: this.deps.workspace,
        language,
        code,
        settings: this.deps.settings().exec,
        ...(signal ? { signal } : {}),
      });
    } finally {
      state.running = false;
    }
    state.runs++;
    state.lastStatus = result.status;
    state.executionCount = result.executionCount;
    const cell = await this.record(drafted ?? this.draft(lang.name, code), result, startedAt, approval);
    // afterCell hooks say nothing back (docs/agent.md#hooks): the client need not wait for them. They
    // start on the next turn of the event loop, once the answer has gone out (the SDK writes it a few
    // microtasks from here): even checking that their files are unchanged is work the client would wait for.
    const hooks = this.deps.hooks;
    if (hooks)
      this.afterHooks = this.afterHooks
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(() => afterCellHooks({ conv: this.conversation }, hooks, cell))
        .catch(() => undefined);
    return result;
  }

  interrupt(language?: string): string[] {
    const names = language ? [this.canonical(language)] : [...this.states.keys()];
    const running = names.filter((name) => this.states.get(name)?.running);
    this.deps.exec.interrupt(this.id, language ? names[0] : undefined);
    return running;
  }

  async restart(language: string): Promise<void> {
    const name = this.canonical(language);
    await this.deps.exec.restart(this.id, name);
    const state = this.states.get(name);
    if (state) state.executionCount = null;
  }

  /** The sessions this client has started, and every language this machine can run. */
  async sessions(): Promise<{ sessions: SessionState[]; languages: { name: string; available: boolean; version: string | null }[] }> {
    const langs = await this.deps.exec.languages({ workspace: this.deps.workspace, settings: this.deps.settings().exec });
    return {
      sessions: [...this.states.values()].map((s) => ({ ...s })),
      languages: langs.map(({ name, available, version }) => ({ name, available, version })),
    };
  }

  notebook(): { text: string; cells: number } {
    return notebookTextOf(this.conversation, {
      appVersion: this.deps.version,
      provider: 'mcp',
      model: this.conversation.title,
      ...(this.deps.resourcesDir ? { resourcesDir: this.deps.resourcesDir } : {}),
    });
  }

  async close(): Promise<void> {
    await this.afterHooks;
    await this.preparing;
    await this.deps.exec.closeConversation(this.id);
    await this.journal?.close();
  }

  private canonical(language: string): string {
    const lang = Languages.findLanguage(language);
    if (!lang) throw new Error(`unknown language "${language}"`);
    return lang.name;
  }

  private stateOf(name: string): SessionState {
    let state = this.states.get(name);
    if (!state) this.states.set(name, (state = { language: name, runs: 0, running: false, lastStatus: null, executionCount: null }));
    return state;
  }

  /** The run as a cell of the client's conversation, saved (the first run creates the file). */
  private async record(asked: CellItem, result: RunResult, startedAt: string, approval: 'auto' | 'user'): Promise<CellItem> {
    // Filled in as a notebook re-run fills a cell; 'user' when the person at the desktop app allowed it,
    // 'auto' when --auto-run or the client's setting did.
    const cell: CellItem = { ...applyRunResult(asked, result, startedAt), approval };
    addItem(this.conversation, this.deps.events, cell);
    touch(this.conversation, this.deps.events);
    // On disk before the client reads the result, either way: the first run creates the file whole
    // (the desktop app lists the conversation from then on); later ones are journalled, one fdatasync.
    if (this.journal) await this.journal.add(cell);
    else {
      await this.deps.conversations.save(this.conversation);
      this.journal = new ConversationJournal(this.deps.conversations, this.conversation, { syncOnCaller: this.deps.syncOnCaller });
    }
    this.saved = true;
    return cell;
  }

  /** True once a run was saved: the desktop app and `oi --list` show the conversation from then on. */
  get persisted(): boolean {
    return this.saved;
  }
}
