import {
  client,
  PROTOCOL_VERSION,
  type ClientConnection,
  type PermissionOption,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { errorMessage, type CellItem, type HostedAgentSpec, type NoticeItem, type SandboxSettings, type Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import type { ExecService } from '../exec';
import type { HookRunner } from '../hooks/hook-runner';
import type { KeySource } from '../llm/provider-factory';
import { providerAccount } from '../secrets/secret-store';
import { newId, now } from '../agent/ids';
import type { LiveConversation } from '../agent/live-conversation';
import type { OpenConversations } from '../agent/open-conversations';
import { approve, finishCell } from '../agent/turn-cell';
import { addNoticeItem } from '../agent/conversation-changes';
import { beforeCellHooks, needsPersonHooks, describeCell, refusedByHook } from '../agent/turn-hooks';
import { startAgentProcess, type AgentProcess } from './agent-process';
import { readHostedFile, writeHostedFile } from './hosted-files';
import { HostedRecord, type ChangeGate } from './hosted-record';
import { HostedTerminals } from './hosted-terminals';

// A conversation driven by an outside ACP agent (docs/acp.md#hosting): we are the ACP client. The
// agent's process is started once per conversation (agent-process.ts) and kept while the app runs;
// each message the person sends is a session/prompt; what the agent says and does is written into the
// conversation (hosted-record.ts); its file writes and terminal commands happen only through us, after
// our approval (its permission requests are our approval cards, with auto-run and beforeCell hooks).

export interface HostedAgentsDeps {
  open: OpenConversations;
  events: EventBus;
  exec: ExecService;
  checkpoints?: CheckpointService;
  hooks?: HookRunner;
  settings: () => Settings;
  /** The sandbox cells get (the data folder sealed): the agent's own process runs in it. */
  sandbox: () => SandboxSettings;
  secretValues: () => readonly string[];
  /** The app's keys (keychain, then environment): an agent set up with `key` gets its provider's. */
  keys?: KeySource;
  env?: NodeJS.ProcessEnv;
  /** The app's resources: the network relay the agent's sandbox starts (agent-process.ts). */
  resourcesDir: string;
}

interface TurnState {
  live: LiveConversation;
  record: HostedRecord;
  signal: AbortSignal;
  /** Permission the person gave that the agent has not used yet: its next write or command runs without asking again. */
  grants: number;
}

interface Hosted {
  name: string;
  process: AgentProcess;
  connection: ClientConnection;
  sessionId: string;
  turn: TurnState | null;
  terminals: HostedTerminals;
}

export class HostedAgents {
  private readonly hosted = new Map<string, Promise<Hosted>>();

  constructor(private readonly deps: HostedAgentsDeps) {}

  /** One prompt turn: the conversation's last message sent to its agent, its answer recorded. */
  async runTurn(live: LiveConversation, signal: AbortSignal): Promise<void> {
    const conversationId = live.conv.id;
    this.deps.events.emit('turn.start', { conversationId });
    const name = live.conv.hostedAgent?.name ?? '';
    let hosted: Hosted | null = null;
    let record: HostedRecord | null = null;
    let stop: string | null = null;
    try {
      hosted = await this.connect(live);
      const text = live.conv.items.findLast((i) => i.kind === 'user')?.text ?? '';
      record = new HostedRecord(live, this.deps.events, name, this.deps);
      hosted.turn = { live, record, signal, grants: 0 };
      const sessionId = hosted.sessionId;
      const connection = hosted.connection;
      const cancel = () => void connection.agent.notify('session/cancel', { sessionId }).catch(() => undefined);
      signal.addEventListener('abort', cancel, { once: true });
      try {
        const answer = await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
        stop = answer.stopReason;
      } finally {
        signal.removeEventListener('abort', cancel);
      }
    } catch (err) {
      this.notice(live, 'error', `The agent "${name}" failed: ${agentFailure(err, hosted?.process.stderr() ?? '')}`);
    } finally {
      await record?.settled();
      record?.finish(stop === 'cancelled' || signal.aborted);
      if (hosted) {
        hosted.terminals.releaseAll();
        hosted.turn = null;
      }
      if (stop && stop !== 'end_turn' && stop !== 'cancelled') this.notice(live, 'warning', `The agent ended its turn: ${stop}.`);
      await this.deps.open.commit(live, true);
      this.deps.events.emit('turn.end', { conversationId, reason: signal.aborted ? 'stopped' : 'done', usage: live.conv.usage });
    }
  }

  /** Ends a conversation's agent process (the conversation was deleted, or the app stops). */
  async close(conversationId: string): Promise<void> {
    const pending = this.hosted.get(conversationId);
    this.hosted.delete(conversationId);
    const hosted = await pending?.catch(() => null);
    if (!hosted) return;
    hosted.terminals.releaseAll();
    hosted.connection.close();
    await hosted.process.stop();
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.hosted.keys()].map((id) => this.close(id)));
  }

  private connect(live: LiveConversation): Promise<Hosted> {
    const id = live.conv.id;
    const existing = this.hosted.get(id);
    if (existing) {
      // A process that exited is started again (and the session loaded where the agent can).
      return existing.then(async (h) => ((await isRunning(h)) ? h : (this.hosted.delete(id), this.connect(live))));
    }
    const started = this.start(live);
    this.hosted.set(id, started);
    started.catch(() => this.hosted.delete(id));
    return started;
  }

  private async start(live: LiveConversation): Promise<Hosted> {
    const settings = this.deps.settings();
    const name = live.conv.hostedAgent?.name ?? '';
    const spec: HostedAgentSpec | undefined = settings.agents[name];
    if (!spec) throw new Error(`no agent named "${name}" in Settings → Agents`);
    const key = spec.key ? await this.deps.keys?.get(providerAccount(spec.key)) : null;
    const keyEnv = key && spec.key ? { [spec.key === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY']: key } : {};
    const process = await startAgentProcess(
      { ...spec, name, env: { ...spec.env, ...keyEnv } },
      {
        resourcesDir: this.deps.resourcesDir,
        workspace: live.conv.workspace,
        sandbox: { ...this.deps.sandbox(), enabled: settings.sandbox.enabled },
        secretValues: this.deps.secretValues(),
        ...(this.deps.env ? { env: this.deps.env } : {}),
      },
    );
    const app = client({ name: 'Open Interpreter' })
      .onNotification('session/update', ({ params }) => {
        if (params.sessionId === hosted.sessionId) hosted.turn?.record.apply(params.update);
      })
      .onRequest('session/request_permission', ({ params }) => this.permission(hosted, params.toolCall, params.options))
      .onRequest('fs/read_text_file', ({ params }) => readHostedFile(this.turnOf(hosted).live, params))
      .onRequest('fs/write_text_file', ({ params }) => {
        const turn = this.turnOf(hosted);
        return writeHostedFile(turn.live, this.deps, { step: turn.record.step, agent: name, gate: this.gate(turn) }, params);
      })
      .onRequest('terminal/create', ({ params }) => {
        const turn = this.turnOf(hosted);
        return hosted.terminals.create(turn.live, params, {
          step: turn.record.step,
          agent: name,
          signal: turn.signal,
          gate: this.gate(turn),
        });
      })
      .onRequest('terminal/output', ({ params }) => hosted.terminals.output(params.terminalId))
      .onRequest('terminal/wait_for_exit', ({ params }) => hosted.terminals.waitForExit(params.terminalId))
      .onRequest('terminal/kill', ({ params }) => {
        hosted.terminals.kill(params.terminalId);
      })
      .onRequest('terminal/release', ({ params }) => {
        hosted.terminals.release(params.terminalId);
      });
    // The handlers above run once messages arrive, after `hosted` exists.
    const hosted: Hosted = {
      name,
      process,
      connection: app.connect(process.stream),
      sessionId: '',
      turn: null,
      terminals: new HostedTerminals(this.deps),
    };
    void process.exited.then(() => hosted.connection.close());
    try {
      const init = await hosted.connection.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: 'open-interpreter', version: '1' },
      });
      hosted.sessionId = await this.openSession(live, hosted, init.agentCapabilities?.loadSession === true);
    } catch (err) {
      await process.stop();
      // Said once, with what the agent wrote on its way out (runTurn has no process to ask).
      throw new Error(agentFailure(err, process.stderr()), { cause: err });
    }
    return hosted;
  }

  /** The conversation's session: loaded where the agent can and one exists, else a new one (the person is told). */
  private async openSession(live: LiveConversation, hosted: Hosted, canLoad: boolean): Promise<string> {
    const cwd = live.conv.workspace;
    const saved = live.conv.hostedAgent?.sessionId ?? null;
    if (saved && canLoad) {
      // What the agent replays is already in the conversation: no turn is set, so it is not recorded twice.
      await hosted.connection.agent.request('session/load', { sessionId: saved, cwd, mcpServers: [] });
      return saved;
    }
    if (saved)
      this.notice(
        live,
        'info',
        `The agent "${hosted.name}" cannot load earlier sessions: it starts anew and does not remember what was said before.`,
      );
    const { sessionId } = await hosted.connection.agent.request('session/new', { cwd, mcpServers: [] });
    live.conv.hostedAgent = { name: hosted.name, sessionId };
    return sessionId;
  }

  private turnOf(hosted: Hosted): TurnState {
    if (!hosted.turn) throw new Error('no prompt turn is going on: the agent may act only while it answers a message');
    return hosted.turn;
  }

  /** The agent's session/request_permission: our approval card (auto-run and beforeCell hooks applying). */
  private async permission(
    hosted: Hosted,
    call: Parameters<HostedRecord['callCell']>[0],
    options: PermissionOption[],
  ): Promise<RequestPermissionResponse> {
    const turn = hosted.turn;
    if (!turn) return { outcome: { outcome: 'cancelled' } };
    const cell = turn.record.callCell(call);
    const wasAutoRun = turn.live.conv.autoRun;
    const verdict = await this.decide(turn, cell);
    const pick = (kinds: PermissionOption['kind'][]) => kinds.map((k) => options.find((o) => o.kind === k)).find(Boolean);
    if (verdict === 'run') {
      turn.grants++;
      cell.status = 'running';
      // An agent that writes and runs by itself (not through fs/* or terminal/*) does it once told: checkpoint first.
      await turn.record.checkpointFor(cell);
      const always = !wasAutoRun && turn.live.conv.autoRun;
      const option = pick(always ? ['allow_always', 'allow_once'] : ['allow_once', 'allow_always']);
      return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } };
    }
    if (verdict === 'stop') return { outcome: { outcome: 'cancelled' } };
    finishCell(turn.live, this.deps.events, cell, 'skipped', verdict.refused);
    const option = pick(['reject_once', 'reject_always']);
    return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } };
  }

  /** A write or command: a permission the person just gave covers it; otherwise asked as a cell is. */
  private gate(turn: TurnState): ChangeGate {
    return async (cell) => {
      if (turn.grants > 0) {
        turn.grants--;
        cell.approval = turn.live.conv.autoRun || this.deps.settings().autoRun ? 'auto' : 'user';
        return 'run';
      }
      const verdict = await this.decide(turn, cell);
      return verdict === 'stop' ? { refused: 'the turn was stopped' } : verdict;
    };
  }

  private async decide(turn: TurnState, cell: CellItem): Promise<'run' | 'stop' | { refused: string }> {
    const { live, signal } = turn;
    const hook = await beforeCellHooks(live, this.deps, cell);
    if (hook.kind === 'deny') return { refused: refusedByHook(hook.reason) };
    const decision = await approve(live, this.deps.events, this.deps.settings(), cell, signal, {
      mustAsk: hook.kind === 'ask',
      onWaiting: () => needsPersonHooks(live, this.deps, 'approval', { cell: describeCell(cell) }),
    });
    if (decision === 'run') return 'run';
    if (decision === 'stop') return 'stop';
    return { refused: 'the person declined' };
  }

  private notice(live: LiveConversation, level: NoticeItem['level'], text: string): void {
    const item: NoticeItem = { kind: 'notice', id: newId(), level, text, createdAt: now() };
    addNoticeItem(live.conv, this.deps.events, item);
  }
}

/** An agent's error in words: the JSON-RPC message, its details (an agent's "Internal error" says little alone), its last stderr lines. */
function agentFailure(err: unknown, stderr: string): string {
  const data: unknown = (err as { data?: unknown } | null)?.data;
  const details = data && typeof data === 'object' && 'details' in data ? String(data.details) : '';
  const tail = stderr.trim().split('\n').slice(-5).join('\n');
  return [errorMessage(err) + (details && !errorMessage(err).includes(details) ? ` (${details})` : ''), tail].filter(Boolean).join('\n');
}

async function isRunning(hosted: Hosted): Promise<boolean> {
  const exited = await Promise.race([hosted.process.exited.then(() => true), Promise.resolve(false)]);
  return !exited && !hosted.connection.signal.aborted;
}
