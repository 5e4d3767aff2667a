import {
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type InitializeResponse,
  type McpServer,
  type SessionModeState,
} from '@agentclientprotocol/sdk';
import { errorMessage, type Conversation, type Settings } from '@contract';
import type { App } from '../../core/app';
import { localRequests } from '../../core/bridge/local-requests';
import { historyUpdates } from './acp-history';
import { AcpSession } from './acp-session';

export interface AcpAgentDeps {
  app: App;
  settings: () => Settings;
  version: string;
  /** Adds the client's MCP servers (session/new's and session/load's mcpServers) for this run. */
  addMcpServers: (servers: McpServer[]) => void;
}

const ASK = 'ask';
const AUTO_RUN = 'auto-run';

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
        return { sessionId: session.id, modes: this.modes(conversation.autoRun) };
      })
      .onRequest('session/load', async ({ params, client }) => {
        await this.start();
        this.deps.addMcpServers(params.mcpServers);
        const conversation = await this.guard(() => this.requests('conversation.get', { conversationId: params.sessionId }), -32002);
        const session = this.sessions.get(conversation.id) ?? this.open(conversation, client);
        for (const update of historyUpdates(conversation.items, conversation.workspace)) session.send(update);
        await session.flushed();
        return { modes: this.modes(conversation.autoRun) };
      })
      .onRequest('session/prompt', async ({ params }) => ({ stopReason: await this.session(params.sessionId).prompt(params.prompt) }))
      .onNotification('session/cancel', ({ params }) => this.sessions.get(params.sessionId)?.cancel())
      .onRequest('session/set_mode', async ({ params }) => {
        await this.start();
        const session = this.session(params.sessionId);
        if (params.modeId !== ASK && params.modeId !== AUTO_RUN)
          throw new RequestError(-32602, `no mode "${params.modeId}": ${ASK} or ${AUTO_RUN}`);
        if (params.modeId === ASK && this.deps.settings().autoRun)
          throw new RequestError(
            -32602,
            "auto-run is on in the app's settings (or --auto-run): every conversation runs code without asking",
          );
        await this.guard(() =>
          this.requests('conversation.set-auto-run', { conversationId: session.id, autoRun: params.modeId === AUTO_RUN }),
        );
        // The conversation's auto-run event sends the current_mode_update (open() below), as for a card's "always".
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
    const session = new AcpSession(this.deps.app, conversation, client);
    this.sessions.set(session.id, session);
    // "Always run in this conversation" chosen on a cell is the auto-run mode from then on.
    session.cli.onEvent((event) => {
      if (event.name === 'conversation.auto-run')
        session.send({ sessionUpdate: 'current_mode_update', currentModeId: this.modeId(event.payload.autoRun) });
    });
    return session;
  }

  private session(id: string): AcpSession {
    const session = this.sessions.get(id);
    if (!session) throw new RequestError(-32002, `no session "${id}" on this connection (session/new or session/load first)`);
    return session;
  }

  private modeId(conversationAutoRun: boolean): string {
    return conversationAutoRun || this.deps.settings().autoRun ? AUTO_RUN : ASK;
  }

  private modes(conversationAutoRun: boolean): SessionModeState {
    return {
      currentModeId: this.modeId(conversationAutoRun),
      availableModes: [
        { id: ASK, name: 'Ask', description: 'Ask before running each piece of code' },
        { id: AUTO_RUN, name: 'Auto-run', description: 'Run code without asking (in the sandbox where it is on)' },
      ],
    };
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
