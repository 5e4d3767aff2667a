import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnyEvent, EventName, EventPayload, SettingsPatch } from '@contract';
import { AgentService } from '../../src-main/core/agent/agent-service';
import type { ComputerService } from '../../src-main/core/agent/computer-cell';
import { ModelKnowledge } from '../../src-main/core/agent/model-knowledge';
import { OpenConversations } from '../../src-main/core/agent/open-conversations';
import { CheckpointService } from '../../src-main/core/checkpoints/checkpoint-service';
import { PROBE_MARKER } from '../../src-main/core/agent/probe-marker';
import { EnvironmentContext, type EnvironmentSources } from '../../src-main/core/agent/environment-context';
import { EventBus } from '../../src-main/core/bridge/event-bus';
import { ConversationStore } from '../../src-main/core/conversations/conversation-store';
import { createExecService, Sandbox } from '../../src-main/core/exec';
import type { ExecService } from '../../src-main/core/exec';
import { createProviderFactory } from '../../src-main/core/llm/provider-factory';
import type { RetryPolicy } from '../../src-main/core/llm/retry-with-backoff';
import { ToolSupportMemory } from '../../src-main/core/llm/tool-support';
import { McpManager } from '../../src-main/core/mcp/mcp-manager';
import { HookRunner } from '../../src-main/core/hooks/hook-runner';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import { startScriptedLlm, type ScriptedLlm, type ScriptedLlmOptions } from '../fixtures/llm-server';
import { expectExportsRerun, type RerunKernel } from './notebook-rerun';

export const RESOURCES_DIR = path.resolve(import.meta.dirname, '../../resources');

export interface AgentHarness {
  llm: ScriptedLlm;
  agent: AgentService;
  /** The MCP client, when the harness was asked for one. */
  mcp: McpManager | null;
  /** Model capabilities (probed) and server context lengths, as the app keeps them. */
  models: ModelKnowledge;
  store: ConversationStore;
  settings: MemorySettingsStore;
  exec: ExecService;
  events: AnyEvent[];
  /** The bus those events came through, for a part of the app that listens to it (the desktop's stop shortcut). */
  bus: EventBus;
  /** Delays the retry policy was asked to wait, in order. */
  sleeps: number[];
  dataDir: string;
  /** Creates an empty conversation and returns its id. */
  newConversation(): Promise<string>;
  /** Sends a message and waits until the turn (and any turn a queued message starts) has ended. */
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
  /** Take workspace checkpoints around each cell (as the app does); off by default to keep results short. */
  checkpoints?: boolean;
  /** Environment parts; by default a fixed, fast stand-in so tests do not spawn detection processes. */
  environment?: EnvironmentSources;
  /** Offer the tools of the MCP servers in settings.mcpServers (as the app does). */
  mcp?: boolean;
  /**
   * close() exports every conversation and runs it under nbconvert --execute (test/support/notebook-
   * rerun.ts). Only a scenario that cannot re-run by its nature turns this off, saying why.
   */
  rerunExports?: false;
  /** The kernel that check runs the notebooks with (its Python and environment). */
  rerunKernel?: RerunKernel;
  /** Run the person's hooks (settings.hooks, <dataDir>/hooks.json, a trusted workspace's), as the app does. */
  hooks?: boolean;
  /** The screen, for computer use (docs/computer-use.md); absent: never offered. */
  computer?: ComputerService;
  /** Runs go through settings.sandbox, as the app's engine does (exec/sandbox/sandbox-policy.ts); off by default. */
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
 * The agent over real parts: the scripted LLM server through the official SDKs, the real exec engine
 * (shell sessions in a temp workspace), conversation files in a temp data folder. Only the model's
 * replies are scripted, and retries wait no real time (their delays are recorded instead).
 */
export async function startAgentHarness(opts: HarnessOptions = {}): Promise<AgentHarness> {
  const llm = await startScriptedLlm(opts.llm);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-agent-'));
  const protocol = opts.protocol ?? 'openai';
  const settings = new MemorySettingsStore({
    provider: protocol,
    baseUrl: protocol === 'openai' ? llm.openaiBaseUrl : llm.anthropicBaseUrl,
    model: protocol === 'openai' ? 'gpt-4o' : 'claude-sonnet-4-6',
    exec: { timeoutMs: 20_000 },
    ...opts.settings,
  });
  const keys = { get: async (account: string) => (account.startsWith('provider:') ? 'sk-test-agent' : null) };
  const bus = new EventBus();
  const events: AnyEvent[] = [];
  const waiters = new Set<() => void>();
  bus.subscribe((event) => {
    events.push(event);
    for (const wake of [...waiters]) wake();
  });
  const store = new ConversationStore(dataDir, () => null);
  const exec = createExecService({ resourcesDir: RESOURCES_DIR, tmpRoot: dataDir, graceMs: 500 });
  const sleeps: number[] = [];
  const retry: RetryPolicy = {
    maxAttempts: 4,
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    maxRetryAfterMs: 120_000,
    sleep: async (ms) => void sleeps.push(ms),
  };
  const providerFor = createProviderFactory(keys, () => settings.get());
  const models = new ModelKnowledge({ dataDir, providerFor, events: bus });
  const mcp = opts.mcp ? new McpManager(() => settings.get().mcpServers) : null;
  const agent = new AgentService({
    open: new OpenConversations({ conversations: store, events: bus }),
    conversations: store,
    exec: opts.sandboxed ? Sandbox.withSandboxSetting(exec, () => settings.get().sandbox) : exec,
    events: bus,
    settings: () => settings.get(),
    providerFor,
    models,
    ...(opts.checkpoints ? { checkpoints: new CheckpointService({ dataDir, settings: () => settings.get() }) } : {}),
    environment: new EnvironmentContext(opts.environment ?? FAST_ENVIRONMENT),
    toolSupport: new ToolSupportMemory(),
    retry,
    ...(mcp ? { mcp } : {}),
    ...(opts.computer ? { computer: opts.computer } : {}),
    ...(opts.hooks
      ? { hooks: new HookRunner({ userFile: path.join(dataDir, 'hooks.json'), settings: () => settings.get(), tmpRoot: dataDir }) }
      : {}),
  });

  const payloads = <N extends EventName>(name: N) => events.filter((e) => e.name === name).map((e) => e.payload as EventPayload<N>);

  return {
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
      return (await store.create()).id;
    },
    async send(conversationId, text) {
      await agent.send(conversationId, text, []);
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
        await agent.dispose();
        await mcp?.dispose();
        await exec.dispose();
        await llm.close();
        if (opts.rerunExports !== false) await expectExportsRerun(conversations, opts.rerunKernel);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
