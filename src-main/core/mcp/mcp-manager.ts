import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage, type McpServerConfig, type McpServerStatus, type McpToolInfo } from '@contract';
import type { McpContent } from './mcp-content';
import { secretRefs } from './mcp-secrets';
import { resultContent, uiResourceUriOf } from './mcp-ui-resource';
import type { McpTransportKind } from './mcp-transport';
import { acceptListed, offeredTools, policyOf, type Listed, type McpTool } from './mcp-tools';

export type { McpContent } from './mcp-content';
export type { McpTool } from './mcp-tools';

export interface McpCallOutcome {
  content: McpContent[];
  isError: boolean;
}

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
const STDERR_TAIL_CHARS = 8000;
const CONNECT_TIMEOUT_MS = 30_000;

type State = McpServerStatus['state'];

interface Server {
  name: string;
  /** The configuration this connection was made with (a change in settings restarts the server). */
  key: string;
  state: State;
  client: Client | null;
  transport: McpTransportKind | null;
  listed: Listed[] | null;
  lastError: string | null;
  stderrTail: string;
  starting: Promise<void> | null;
  /** After a crash: no new start before this time; the wait doubles with each crash in a row. */
  retryAt: number;
  backoffMs: number;
  restarts: number;
  /** When the current connection was made: a crash after a long healthy run starts the backoff over. */
  connectedAt: number;
  closing: boolean;
}

export interface McpManagerOptions {
  /** Reads a keychain account: the servers' secret env values and headers. */
  secret?: (account: string) => Promise<string | null>;
  /** A server's state or tool list changed. */
  onChange?: (name: string) => void;
  clock?: () => number;
}

/**
 * The MCP client side (docs/mcp.md): one SDK Client per configured server, started the first time a
 * turn asks for tools (or Settings connects it), restarted after a crash when next needed (with a
 * doubling wait), closed with the app. Servers get only their configured env (and their keychain
 * secrets) over a minimal default (PATH, HOME, ...): app keys and the app's environment never reach them.
 */
export class McpManager {
  private readonly servers = new Map<string, Server>();
  private readonly secret: (account: string) => Promise<string | null>;
  private readonly clock: () => number;

  constructor(
    private readonly config: () => Record<string, McpServerConfig>,
    private readonly opts: McpManagerOptions = {},
  ) {
    this.secret = opts.secret ?? (() => Promise.resolve(null));
    this.clock = opts.clock ?? Date.now;
  }

  /** The tools of every enabled server, starting servers as needed; a server that fails is left out. */
  async tools(): Promise<McpTool[]> {
    const configs = Object.entries(this.config()).filter(([, c]) => !c.disabled);
    await this.dropRemoved(new Set(configs.map(([name]) => name)));
    const lists = await Promise.all(
      configs.map(async ([name, c]) => ((await this.ready(name, c)) ? offeredTools(name, c, this.servers.get(name)?.listed ?? []) : [])),
    );
    const seen = new Set<string>();
    const offered: McpTool[] = [];
    for (const tool of lists.flat()) {
      if (seen.has(tool.name)) {
        this.noteError(tool.server, `tool "${tool.tool}" was left out: its name ${tool.name} collides with another tool`);
        continue;
      }
      seen.add(tool.name);
      offered.push(tool);
    }
    return offered;
  }

  /**
   * Loads the SDK's client (zod's schemas, ajv) ahead of the first turn when a server is configured, so
   * that turn's servers start at once rather than after it loads; nothing is started. Called at the app's
   * warm-up (docs/mcp.md#start-up).
   */
  warmUp(): void {
    if (this.enabledServers().length > 0) void import('./mcp-transport').catch(() => undefined);
  }

  /** The names of the servers that are not turned off. */
  enabledServers(): string[] {
    return Object.entries(this.config())
      .filter(([, c]) => !c.disabled)
      .map(([name]) => name);
  }

  async status(): Promise<McpServerStatus[]> {
    return Promise.all(Object.entries(this.config()).map(([name, c]) => this.statusOf(name, c)));
  }

  /** Starts a server now (again after a failure, without waiting out its backoff) and reports on it. */
  async connect(name: string): Promise<McpServerStatus> {
    const c = this.config()[name];
    if (!c) throw new Error(`There is no MCP server named "${name}".`);
    if (c.disabled) return this.statusOf(name, c);
    const s = this.servers.get(name);
    if (s && s.state !== 'connected' && s.state !== 'starting') s.retryAt = 0;
    await this.ready(name, c);
    return this.statusOf(name, c);
  }

  /** Stops a server so its next use starts it afresh (its secrets changed, or it was disabled). */
  async restart(name: string): Promise<void> {
    const s = this.servers.get(name);
    if (!s) return;
    this.servers.delete(name);
    await this.stop(s);
    this.changed(name);
  }

  /** Calls a tool; rejects when the server is gone, the call times out or the signal fires. */
  async call(
    tool: McpTool,
    args: Record<string, unknown>,
    opts: { timeoutMs: number; signal: AbortSignal; onProgress?: (p: McpProgress) => void },
  ): Promise<McpCallOutcome> {
    const c = this.config()[tool.server];
    if (!c || c.disabled || !(await this.ready(tool.server, c))) {
      throw new Error(`the MCP server "${tool.server}" is not running: ${this.servers.get(tool.server)?.lastError ?? 'not configured'}`);
    }
    if ((c.disabledTools ?? []).includes(tool.tool))
      throw new Error(`the tool "${tool.tool}" of "${tool.server}" is turned off in Settings`);
    const client = this.servers.get(tool.server)?.client;
    if (!client) throw new Error(`the MCP server "${tool.server}" is not running`);
    const onProgress = opts.onProgress;
    const result = await client.callTool({ name: tool.tool, arguments: args }, undefined, {
      timeout: opts.timeoutMs,
      signal: opts.signal,
      ...(onProgress ? { onprogress: (p: McpProgress) => onProgress(p) } : {}),
    });
    const parts = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
    const named = uiResourceUriOf(result._meta) ?? this.listedTool(tool.server, tool.tool)?.uiResourceUri;
    const content = await resultContent(client, parts, named, { timeoutMs: opts.timeoutMs, signal: opts.signal });
    return { content, isError: result.isError === true };
  }

  /** The connected client of a server (resources and prompts), starting it when needed. */
  async clientOf(name: string): Promise<Client> {
    const c = this.config()[name];
    if (!c) throw new Error(`There is no MCP server named "${name}".`);
    if (c.disabled) throw new Error(`The MCP server "${name}" is turned off.`);
    if (!(await this.ready(name, c)))
      throw new Error(`The MCP server "${name}" is not running: ${this.servers.get(name)?.lastError ?? 'unknown error'}`);
    const client = this.servers.get(name)?.client;
    if (!client) throw new Error(`The MCP server "${name}" is not running.`);
    return client;
  }

  /** The server marked the tool read-only when it last listed its tools (unknown: not read-only). */
  isReadOnly(server: string, tool: string): boolean {
    return this.listedTool(server, tool)?.readOnly ?? false;
  }

  private listedTool(server: string, tool: string): Listed | undefined {
    return this.servers.get(server)?.listed?.find((t) => t.name === tool);
  }

  /** The stdio server's process id (tests end it to show a crash is survived). */
  pidOf(name: string): number | null {
    const transport = this.servers.get(name)?.client?.transport as { pid?: number | null } | undefined;
    return transport?.pid ?? null;
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => this.stop(s)));
    this.servers.clear();
  }

  private async statusOf(name: string, c: McpServerConfig): Promise<McpServerStatus> {
    const s = this.servers.get(name);
    const missing: string[] = [];
    for (const ref of secretRefs(name, c)) if ((await this.secret(ref.account).catch(() => null)) === null) missing.push(ref.name);
    const tools: McpToolInfo[] | null =
      s?.listed?.map((t) => ({
        name: t.name,
        description: t.description,
        readOnly: t.readOnly,
        policy: policyOf(c, t),
      })) ?? null;
    return {
      name,
      state: c.disabled ? 'disabled' : (s?.state ?? 'idle'),
      transport: s?.transport ?? null,
      toolCount: tools?.filter((t) => t.policy !== 'disabled').length ?? 0,
      tools,
      lastError: s?.lastError ?? null,
      stderrTail: s?.stderrTail ?? '',
      missingSecrets: missing,
      restarts: s?.restarts ?? 0,
    };
  }

  private async ready(name: string, c: McpServerConfig): Promise<boolean> {
    const key = JSON.stringify({ ...c, alwaysAllow: undefined, disabledTools: undefined, askTools: undefined });
    let s = this.servers.get(name);
    if (s && s.key !== key) {
      await this.stop(s);
      s = undefined;
    }
    if (!s) {
      s = {
        name,
        key,
        state: 'idle',
        client: null,
        transport: null,
        listed: null,
        lastError: null,
        stderrTail: '',
        starting: null,
        retryAt: 0,
        backoffMs: FIRST_BACKOFF_MS,
        restarts: 0,
        connectedAt: 0,
        closing: false,
      };
      this.servers.set(name, s);
    }
    if (s.state === 'connected') return true;
    if ((s.state === 'crashed' || s.state === 'failed') && this.clock() < s.retryAt) return false;
    s.starting ??= this.start(s, c).finally(() => {
      if (s) s.starting = null;
    });
    await s.starting;
    return connected(s);
  }

  private async start(s: Server, c: McpServerConfig): Promise<void> {
    s.state = 'starting';
    s.closing = false;
    this.changed(s.name);
    let client: Client | null = null;
    try {
      // The SDK (with its zod, ajv and cross-spawn) loads when a server first starts, not with the app:
      // most runs configure none (bench/startup.bench.ts).
      const { connectServer } = await import('./mcp-transport');
      const made = await connectServer({
        name: s.name,
        config: c,
        secret: this.secret,
        timeoutMs: CONNECT_TIMEOUT_MS,
        onStderr: (text) => void (s.stderrTail = (s.stderrTail + text).slice(-STDERR_TAIL_CHARS)),
        onClose: (closed) => {
          if (s.client !== closed || s.closing) return;
          this.crashed(s, 'the server closed the connection (it crashed or exited)');
        },
      });
      client = made.client;
      const listed = await client.listTools(undefined, { timeout: CONNECT_TIMEOUT_MS });
      s.client = client;
      s.transport = made.transport;
      const accepted = acceptListed(s.name, listed.tools);
      s.lastError = accepted.problem;
      s.listed = accepted.tools;
      s.state = 'connected';
      s.connectedAt = this.clock();
    } catch (err) {
      await client?.close().catch(() => undefined);
      s.client = null;
      s.state = 'failed';
      s.lastError = `could not start: ${errorMessage(err)}`;
      s.retryAt = this.clock() + s.backoffMs;
      s.backoffMs = Math.min(MAX_BACKOFF_MS, s.backoffMs * 2);
    }
    this.changed(s.name);
  }

  private crashed(s: Server, why: string): void {
    s.state = 'crashed';
    s.client = null;
    s.lastError = why;
    s.restarts += 1;
    // A server that ran a while before it died waits 1 s again; one that dies as it starts waits longer each time.
    if (this.clock() - s.connectedAt >= MAX_BACKOFF_MS) s.backoffMs = FIRST_BACKOFF_MS;
    s.retryAt = this.clock() + s.backoffMs;
    s.backoffMs = Math.min(MAX_BACKOFF_MS, s.backoffMs * 2);
    this.changed(s.name);
  }

  private noteError(server: string, message: string): void {
    const s = this.servers.get(server);
    if (s) s.lastError = message;
  }

  private changed(name: string): void {
    try {
      this.opts.onChange?.(name);
    } catch {
      // A listener's failure is not the server's.
    }
  }

  private async dropRemoved(names: Set<string>): Promise<void> {
    for (const [name, s] of this.servers) {
      if (names.has(name)) continue;
      this.servers.delete(name);
      await this.stop(s);
    }
  }

  private async stop(s: Server): Promise<void> {
    s.closing = true;
    const client = s.client;
    s.client = null;
    s.state = 'idle';
    await client?.close().catch(() => undefined);
  }
}

/** Read through a function: the state changes while a start is awaited, which narrowing cannot see. */
function connected(s: Server): boolean {
  return s.state === 'connected';
}
