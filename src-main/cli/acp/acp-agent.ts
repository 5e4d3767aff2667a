import {
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type InitializeResponse,
  type McpServer,
} from '@agentclientprotocol/sdk';
import { errorMessage, type Conversation, type Settings } from '@contract';
import type { App } from '../../core/app';
import { localRequests } from '../../core/bridge/local-requests';
import { availableCommands } from './acp-commands';
import { historyUpdates } from './acp-history';
import { AUTO_RUN, PLAN, checkModeId, modeIdOf, modeState, type ModeFacts } from './acp-modes';
import { AcpSession } from './acp-session';

export interface AcpAgentDeps {
  app: App;
  settings: () => Settings;
  version: string;
  /** Adds the client's MCP servers (session/new's and session/load's mcpServers) for this run. */
  addMcpServers: (servers: McpServer[]) => void;
}

/**
 * The ACP methods `oi acp` answers, on the app's requests: a session is a conversation. `initialize`
 * needs nothing of the app, so it is answered before the app starts (`begin` starts it once the answer
 * is written), and the editor's next request is on its way while the app starts; every other request
 * starts the app if nothing has yet, and waits for it.
 */
export class AcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  private readonly started: Promise<{ deps: AcpAgentDeps; requests: ReturnType<typeof localRequests> }>;
  /** Set once the app has started (every request but initialize waits for `started` first). */
  private deps!: AcpAgentDeps;
  private requests!: ReturnType<typeof localRequests>;

  constructor(
    starting: Promise<AcpAgentDeps>,
    private readonly version: string,
    /** Starts the app (`starting` settles after it); calling it again does nothing. */
    private readonly begin: () => void = () => undefined,
  ) {
    this.started = starting.then((deps) => {
      this.deps = deps;
      this.requests = localRequests(deps.app.handlers);
      return { deps, requests: this.requests };
    });
    // A start that fails is reported by whoever awaits it (acp-command.ts), not as an unhandled rejection here.
    this.started.catch(() => undefined);
  }

  register(app: AgentApp): AgentApp {
    return app
      .onRequest('initialize', () => {
        // The app's start holds the event loop for its whole length (it waits on almost no I/O): started
        // before this answer is written, it would delay the editor's next request by all of it.
        setImmediate(this.begin);
        return this.initializeResponse();
      })
      .onRequest('session/new', async ({ params, client }) => {
        await this.start();
        this.deps.addMcpServers(params.mcpServers);
        const conversation = await this.guard(() => this.requests('conversation.create', { workspace: params.cwd }));
        const session = this.open(conversation, client);
        return { sessionId: session.id, modes: this.modes(session) };
      })
      .onRequest('session/load', async ({ params, client }) => {
        await this.start();
        this.deps.addMcpServers(params.mcpServers);
        const conversation = await this.guard(() => this.requests('conversation.get', { conversationId: params.sessionId }), -32002);
        const session = this.sessions.get(conversation.id) ?? this.open(conversation, client);
        for (const update of historyUpdates(conversation.items, conversation.workspace)) session.send(update);
        await session.flushed();
        return { modes: this.modes(session) };
      })
      .onRequest('session/prompt', async ({ params }) => ({ stopReason: await this.session(params.sessionId).prompt(params.prompt) }))
      .onNotification('session/cancel', ({ params }) => this.sessions.get(params.sessionId)?.cancel())
      .onRequest('session/set_mode', async ({ params }) => {
        await this.start();
        const session = this.session(params.sessionId);
        checkModeId(params.modeId, this.deps.settings().autoRun);
        const conversationId = session.id;
        if (params.modeId === PLAN) await this.guard(() => this.requests('conversation.set-plan-mode', { conversationId, planMode: true }));
        else {
          // The switch first, so leaving plan mode is one current_mode_update (plan → the mode asked for).
          await this.guard(() => this.requests('conversation.set-auto-run', { conversationId, autoRun: params.modeId === AUTO_RUN }));
          if (session.mode.planMode)
            await this.guard(() => this.requests('conversation.set-plan-mode', { conversationId, planMode: false }));
        }
        // The conversation's events send the current_mode_update (open() below), as for a card's "always".
        await session.flushed();
        return {};
      });
  }

  private initializeResponse(): InitializeResponse {
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        // Text, and files the editor embeds; images and audio are not taken yet (docs/acp.md).
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        // The app's MCP client speaks Streamable HTTP and the old SSE transport as well as stdio.
        mcpCapabilities: { http: true, sse: true },
      },
      agentInfo: { name: 'open-interpreter', title: 'Open Interpreter', version: this.version },
      authMethods: [],
    };
  }

  /** Every request but initialize: the app, started now if initialize did not start it. */
  private start(): Promise<unknown> {
    this.begin();
    return this.started;
  }

  async close(): Promise<void> {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }

  private open(conversation: Conversation, client: AgentContext): AcpSession {
    const deps = this.deps;
    const meta = () => ({ appVersion: deps.version, ...this.modelOf(conversation), resourcesDir: deps.app.context.resourcesDir });
    const session = new AcpSession(deps.app, conversation, client, meta);
    this.sessions.set(session.id, session);
    const facts: ModeFacts = session.mode;
    let sentMode = this.modeId(facts);
    // "Always run in this conversation" chosen on a cell is the auto-run mode from then on; an approved
    // plan ends plan mode.
    session.cli.onEvent((event) => {
      if (event.name === 'conversation.auto-run') facts.autoRun = event.payload.autoRun;
      else if (event.name === 'conversation.plan-mode') facts.planMode = event.payload.planMode;
      else return;
      const now = this.modeId(facts);
      if (now !== sentMode) session.send({ sessionUpdate: 'current_mode_update', currentModeId: (sentMode = now) });
    });
    // After the answer that names the session, as the client must know it first.
    setImmediate(() => {
      availableCommands(session.cli).then(
        (availableCommands) => session.send({ sessionUpdate: 'available_commands_update', availableCommands }),
        () => undefined,
      );
    });
    return session;
  }

  private modelOf(conversation: Conversation): { provider: string; model: string } {
    const settings = this.deps.settings();
    return { provider: conversation.modelChoice?.provider ?? settings.provider, model: conversation.modelChoice?.model ?? settings.model };
  }

  private session(id: string): AcpSession {
    const session = this.sessions.get(id);
    if (!session) throw new RequestError(-32002, `no session "${id}" on this connection (session/new or session/load first)`);
    return session;
  }

  private modeId(facts: ModeFacts): string {
    return modeIdOf(facts, this.deps.settings().autoRun);
  }

  private modes(session: AcpSession): ReturnType<typeof modeState> {
    return modeState(session.mode, this.deps.settings().autoRun);
  }

  /** The app's refusal (a folder it cannot use, an unknown conversation) as the client's error, in the app's words. */
  private async guard<T>(work: () => Promise<T>, code = -32602): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw new RequestError(code, errorMessage(err).replace(/^[\w.-]+: /, ''));
    }
  }
}
