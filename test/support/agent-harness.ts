import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnyEvent, EventName, EventPayload, SettingsPatch } from '@contract';
import type { App } from '../../src-main/core/app';
import type { AgentService } from '../../src-main/core/agent/agent-service';
import type { ComputerService } from '../../src-main/core/agent/computer-cell';
import type { ModelKnowledge } from '../../src-main/core/agent/model-knowledge';
import { PROBE_MARKER } from '../../src-main/core/agent/probe-marker';
import type { EnvironmentSources } from '../../src-main/core/agent/environment-context';
import type { EventBus } from '../../src-main/core/bridge/event-bus';
import { localRequests, type LocalRequest } from '../../src-main/core/bridge/local-requests';
import type { ConversationStore } from '../../src-main/core/conversations/conversation-store';
import type { ExecService } from '../../src-main/core/exec';
import type { RetryPolicy } from '../../src-main/core/llm/retry-with-backoff';
import type { McpManager } from '../../src-main/core/mcp/mcp-manager';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import type { SettingsStore } from '../../src-main/core/settings/settings-store';
import { startScriptedLlm, type ScriptedLlm, type ScriptedLlmOptions } from '../fixtures/llm-server';
import { expectExportsRerun, type RerunKernel } from './notebook-rerun';
import { SANDBOX_CHOSEN_OFF } from './sandbox-choice';
import { createTestApp, RESOURCES_DIR } from './test-app';

export { RESOURCES_DIR };

export interface AgentHarness {
  llm: ScriptedLlm;
  /** The app (createApp), wired as the desktop app, browser mode and `oi` wire it. */
  app: App;
  /** Requests through the app's dispatcher (the contract's input check first), as `oi` makes them. */
  request: LocalRequest;
  agent: AgentService;
  /** The app's MCP client: it starts the servers in settings.mcpServers when a turn needs their tools. */
  mcp: McpManager;
  /** Model capabilities (probed) and server context lengths, as the app keeps them. */
  models: ModelKnowledge;
  store: ConversationStore;
  /** The settings the app reads (the sandbox's default applied over the test's store). */
  settings: SettingsStore;
  /** The engine the agent runs cells through: auto-install, the sandbox setting and remote kernels included. */
  exec: ExecService;
  events: AnyEvent[];
  /** The bus those events came through, for a part of the app that listens to it (the desktop's stop shortcut). */
  bus: EventBus;
  /** Delays the retry policy was asked to wait, in order. */
  sleeps: number[];
  dataDir: string;
  /** Creates an empty conversation (the `conversation.create` request) and returns its id. */
  newConversation(): Promise<string>;
  /** Sends a message (`chat.send`) and waits until the turn (and any turn a queued message starts) has ended. */
  send(conversationId: string, text: string): Promise<void>;
  waitFor<N extends EventName>(name: N, match?: (payload: EventPayload<N>) => boolean): Promise<EventPayload<N>>;
  payloads<N extends EventName>(name: N): Array<EventPayload<N>>;
  /** Bodies of the model calls so far. */
  bodies(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  settings?: SettingsPatch;
  llm?: ScriptedLlmOptions;
  protocol?: 'openai' | 'anthropic';
  /** Take workspace checkpoints around each cell (as the app does); off by default to keep results short and cells cheap. */
  checkpoints?: boolean;
  /** Environment parts; by default a fixed, fast stand-in so tests do not spawn detection processes. */
  environment?: EnvironmentSources;
  /**
   * close() exports every conversation and runs it under nbconvert --execute (test/support/notebook-
   * rerun.ts). Only a scenario that cannot re-run by its nature turns this off, saying why.
   */
  rerunExports?: false;
  /** The kernel that check runs the notebooks with (its Python and environment). */
  rerunKernel?: RerunKernel;
  /** The screen, for computer use (docs/computer-use.md); absent: no display, so never offered. */
  computer?: ComputerService;
  /**
   * Leave the sandbox at the product's default (on wherever bubblewrap works). Default: chosen off,
   * as startAppUnderTest does, unless settings name `sandbox`: most scenarios are about something
   * else, and a sandboxed cell costs a bubblewrap process (and a network proxy) per session.
   */
  sandboxed?: boolean;
}

/** Requests that are model calls (not model listings, /api/show or /api/pull); capability probes are left out. */
const MODEL_CALLS = new Set(['/v1/chat/completions', '/v1/messages', '/api/chat']);

const FAST_ENVIRONMENT: EnvironmentSources = {
  languages: async () => [{ name: 'shell', aliases: ['bash'], available: true, version: '5.2', persistent: true }],
  python: async () => null,
  now: () => new Date('2026-01-02T03:04:05Z'),
};

/**
 * The agent inside the real app (createApp, through test-app.ts): the scripted LLM server through the
 * official SDKs, the app's engine (auto-install and install questions, the sandbox setting, remote
 * kernels), conversation files in a temp data folder, and the conversation and chat requests through
 * the dispatcher. Only the model's replies are scripted. Three parts are the test's own (core/app-parts.ts),
 * each for a reason: retries wait no real time (their delays are recorded: a fake clock), the
 * environment is a fixed stand-in (no detection process per language and test), and checkpoints are
 * taken only when asked (each cell would otherwise snapshot its workspace twice).
 */
export async function startAgentHarness(opts: HarnessOptions = {}): Promise<AgentHarness> {
  const llm = await startScriptedLlm(opts.llm);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-agent-'));
  const protocol = opts.protocol ?? 'openai';
  const patch: SettingsPatch = {
    provider: protocol,
    baseUrl: protocol === 'openai' ? llm.openaiBaseUrl : llm.anthropicBaseUrl,
    model: protocol === 'openai' ? 'gpt-4o' : 'claude-sonnet-4-6',
    exec: { timeoutMs: 20_000 },
    ...(opts.sandboxed || opts.settings?.sandbox ? {} : SANDBOX_CHOSEN_OFF),
    ...opts.settings,
  };
  // A key for every provider a scenario may name (a sub-agent on the other protocol's server, Ollama…).
  const secrets = new MemorySecretStore();
  for (const provider of new Set(['openai', 'anthropic', patch.provider ?? protocol]))
    await secrets.set(`provider:${provider}`, 'sk-test-agent');
  const sleeps: number[] = [];
  const retry: RetryPolicy = {
    maxAttempts: 4,
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    maxRetryAfterMs: 120_000,
    sleep: async (ms) => void sleeps.push(ms),
  };
  const app = createTestApp({
    dataDir,
    settings: new MemorySettingsStore(patch),
    secrets,
    screenEnv: {},
    localServers: [],
    parts: {
      retry,
      environment: opts.environment ?? FAST_ENVIRONMENT,
      ...(opts.computer ? { computer: opts.computer } : {}),
      ...(opts.checkpoints ? {} : { checkpoints: false as const }),
    },
  });
  const { agent, conversations: store, models, mcp, exec, settings } = app.context;
  const bus = app.events;
  const request = localRequests(app.handlers);
  const events: AnyEvent[] = [];
  const waiters = new Set<() => void>();
  bus.subscribe((event) => {
    events.push(event);
    for (const wake of [...waiters]) wake();
  });

  const payloads = <N extends EventName>(name: N) => events.filter((e) => e.name === name).map((e) => e.payload as EventPayload<N>);

  return {
    app,
    request,
    bus,
    llm,
    agent,
    mcp,
    models,
    store,
    settings,
    exec,
    events,
    sleeps,
    dataDir,
    async newConversation() {
      return (await request('conversation.create', {})).id;
    },
    async send(conversationId, text) {
      await request('chat.send', { conversationId, text });
      await agent.idle(conversationId);
    },
    waitFor(name, match = () => true) {
      return new Promise((resolve) => {
        const check = () => {
          const found = payloads(name).find(match);
          if (found) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        check();
      });
    },
    payloads,
    bodies: () =>
      llm.requests
        .filter((r) => MODEL_CALLS.has(r.path) && !JSON.stringify(r.body).includes(PROBE_MARKER))
        .map((r) => r.body as Record<string, unknown>),
    async close() {
      try {
        // Every scenario's conversation, exported, must re-run in Jupyter and print the same.
        const conversations = await Promise.all((await store.list()).map((s) => agent.snapshot(s.id)));
        await app.dispose();
        await llm.close();
        if (opts.rerunExports !== false) await expectExportsRerun(conversations, opts.rerunKernel);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
