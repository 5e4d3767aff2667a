import type { CellItem, CellStatus, Conversation, Settings } from '@contract';
import { newId, now } from '../agent/ids';
import type { ConversationStore } from '../conversations/conversation-store';
import { findLanguage, type ExecService, type RunResult } from '../exec';
import { notebookTextOf } from '../notebook/notebook-files';
import { applyRunResult } from '../notebook/rerun';
import { newCell } from '../conversations/new-cell';

// One MCP client's side of `oi mcp`: a conversation of its own (so its sessions are its own: the
// engine keys sessions by conversation), each run recorded as a cell the way the agent records one,
// so notebook export is the app's own export and the desktop app can open what a client ran.

export interface ServeSessionDeps {
  exec: ExecService;
  conversations: ConversationStore;
  settings: () => Settings;
  /** The folder code runs in and files are confined to (already checked and real). */
  workspace: string;
  version: string;
  /** The app's resources folder (notebook export defines the runner helpers a notebook uses). */
  resourcesDir?: string;
}

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
  private readonly states = new Map<string, SessionState>();

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
    this.conversation.title = `MCP: ${clientName.slice(0, 100)}`;
    this.conversation.mcpClient = clientName.slice(0, 100);
  }

  get id(): string {
    return this.conversation.id;
  }

  /** The name the client gave when it initialized ('client' before). */
  get clientName(): string {
    return this.conversation.mcpClient ?? 'client';
  }

  /** Runs code in this client's session of `language`; an unknown language is refused before anything starts. */
  async execute(language: string, code: string, signal?: AbortSignal, approval: 'auto' | 'user' = 'auto'): Promise<RunResult> {
    const lang = findLanguage(language);
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
    await this.record(lang.name, code, result, startedAt, approval);
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
    await this.deps.exec.closeConversation(this.id);
  }

  private canonical(language: string): string {
    const lang = findLanguage(language);
    if (!lang) throw new Error(`unknown language "${language}"`);
    return lang.name;
  }

  private stateOf(name: string): SessionState {
    let state = this.states.get(name);
    if (!state) this.states.set(name, (state = { language: name, runs: 0, running: false, lastStatus: null, executionCount: null }));
    return state;
  }

  /** The run as a cell of the client's conversation, saved (the first run creates the file). */
  private async record(language: string, code: string, result: RunResult, startedAt: string, approval: 'auto' | 'user'): Promise<void> {
    const asked = newCell({ id: newId(), step: newId(), toolCallId: null, language, code, status: 'running' });
    // Filled in as a notebook re-run fills a cell; 'user' when the person at the desktop app allowed it,
    // 'auto' when --auto-run or the client's setting did.
    const cell: CellItem = { ...applyRunResult(asked, result, startedAt), approval };
    this.conversation.items.push(cell);
    this.conversation.updatedAt = now();
    await this.deps.conversations.save(this.conversation);
    this.saved = true;
  }

  /** True once a run was saved: the desktop app and `oi --list` show the conversation from then on. */
  get persisted(): boolean {
    return this.saved;
  }
}
