import { z } from 'zod';
import { HooksConfig } from './hooks';
import { AgentName, HostedAgentSpec } from './hosted-agents';
import { NotifyKind } from './notify-kinds';

// Settings the renderer may see and change. API keys are NOT settings: they live in the OS keychain
// and never cross the bridge towards the renderer. Schemas here carry no defaults on purpose: a patch
// must never fill in fields the user did not send. Defaults live in `defaultSettings`.

export const ProviderKind = z.enum(['openai', 'anthropic', 'ollama', 'openai-compatible']);

/** OpenAI-family reasoning models: the Chat Completions `reasoning_effort` values the app offers. */
export const ReasoningEffort = z.enum(['low', 'medium', 'high']);

/** Anthropic refuses a thinking budget below this many tokens. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

export const ExecSettings = z.object({
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(24 * 3600 * 1000),
  memoryMb: z.number().int().min(16).max(1_048_576).nullable(),
  cpuSeconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .nullable(),
  maxProcesses: z.number().int().min(8).max(1_000_000).nullable(),
  /** Bytes of output the UI keeps for one run before the rest is spilled to a file. */
  outputCapBytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3),
  /** Characters of a run's output the model sees (head + tail). */
  modelOutputChars: z.number().int().min(200).max(1_000_000),
  pythonPath: z.string().max(4096).nullable(),
  env: z.record(z.string().max(256), z.string().max(32_768)),
  /** A missing package: ask before installing it (default), install well-known ones without asking, or never. */
  autoInstall: z.enum(['ask', 'auto', 'off']),
  /** The shell `shell` cells run in: the login shell ($SHELL) when it is bash or zsh, else bash ('auto'), or always this one. `bash`/`zsh` cells keep their own. */
  shell: z.enum(['auto', 'bash', 'zsh']),
  /** When code asks for input (input(), sudo's password, a [Y/n] question): ask the person, or end the input at once. */
  inputRequests: z.enum(['ask', 'end']),
  /** How long one question waits for the person before the program gets end-of-input; the run's timeout is paused meanwhile. */
  inputWaitMs: z
    .number()
    .int()
    .min(1000)
    .max(24 * 3600 * 1000),
  /**
   * How long a conversation's sessions (runners, shells, with their processes) stay alive unused
   * before they are ended to free memory; 0 never ends them. Never while a cell runs, a question
   * waits or a turn goes on; the next run says the state is gone (docs/exec.md#idle-sessions).
   */
  sessionIdleMs: z
    .number({ error: 'sessionIdleMs: the idle time before sessions end must be a number of milliseconds (0 = never)' })
    .int('sessionIdleMs: the idle time before sessions end must be a whole number of milliseconds (0 = never)')
    .min(0, 'sessionIdleMs: the idle time before sessions end cannot be negative (0 = never)')
    .max(30 * 24 * 3600 * 1000, 'sessionIdleMs: the idle time before sessions end can be at most 30 days (0 = never)'),
});

/** A host sandboxed code may reach through the app's proxy: `example.com`, `*.example.com` or an address. */
const AllowedHost = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\*\.)?[A-Za-z0-9.:_[\]-]+$/, 'a host name such as example.com or *.example.com');

export const SandboxSettings = z.object({
  /**
   * Whether code runs in the sandbox. Until the person chooses (`chosen`), main shows the default
   * here: on wherever the sandbox works on this machine (docs/sandbox.md).
   */
  enabled: z.boolean(),
  /** The person chose `enabled` (Settings, `--sandbox` / `--no-sandbox`); otherwise it is the default. */
  chosen: z.boolean(),
  /** Direct, unfiltered network; otherwise only through the app's proxy, host by host. */
  allowNetwork: z.boolean(),
  extraPaths: z.array(z.string().max(4096)).max(64),
  /** Hosts the proxy lets sandboxed code reach without asking, besides the package registries ("always"). */
  allowedHosts: z.array(AllowedHost).max(256),
});

/** An environment variable or header name an MCP server entry refers to. */
const McpEntryName = z.string().min(1).max(256);

/**
 * Per-tool choices, in the field names Roo Code / Cline use in the same file: `alwaysAllow` runs a
 * tool's calls without asking, `disabledTools` are never offered to the model. `askTools` (ours) asks
 * before each call even of a tool its server marks read-only. In none of them: a tool the server marks
 * read-only (annotations.readOnlyHint) runs without asking, any other asks.
 */
const McpToolChoices = {
  alwaysAllow: z.array(z.string().min(1).max(256)).max(1024).optional(),
  disabledTools: z.array(z.string().min(1).max(256)).max(1024).optional(),
  askTools: z.array(z.string().min(1).max(256)).max(1024).optional(),
};

/**
 * One MCP server in the common `mcpServers` shape (Claude Desktop, Cursor, goose): a program started
 * over stdio, or an HTTP endpoint (Streamable HTTP, falling back to the old HTTP+SSE transport, or SSE
 * only with `type: "sse"`). `env` is all the server gets besides a minimal PATH/HOME: app keys never
 * reach it unless written here. `secretEnv` / `secretHeaders` name values kept in the OS keychain
 * (docs/mcp.md), never in this file.
 */
export const McpServerConfig = z.union([
  z.object({
    command: z.string().min(1).max(4096),
    args: z.array(z.string().max(32_768)).max(256).optional(),
    env: z.record(z.string().max(256), z.string().max(32_768)).optional(),
    secretEnv: z.array(McpEntryName).max(64).optional(),
    cwd: z.string().max(4096).optional(),
    disabled: z.boolean().optional(),
    ...McpToolChoices,
  }),
  z.object({
    url: z.url({ protocol: /^https?$/ }).max(2048),
    type: z.enum(['http', 'sse']).optional(),
    headers: z.record(z.string().max(256), z.string().max(32_768)).optional(),
    secretHeaders: z.array(McpEntryName).max(64).optional(),
    disabled: z.boolean().optional(),
    ...McpToolChoices,
  }),
]);

/** A name `mcpServers` accepts: the tool name `mcp__<server>__<tool>` must split back into both. */
export const McpServerName = z
  .string()
  .max(48)
  .regex(/^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/, 'an MCP server name is letters, digits, - and single _ between them (at most 48)');

/** The name an MCP client gives in its initialize request (clientInfo.name): its own word, not a proof. */
export const McpClientName = z.string().min(1).max(256);
export const McpClientPolicy = z.enum(['ask', 'allow', 'refuse']);

export const Settings = z.object({
  version: z.literal(2),
  provider: ProviderKind,
  model: z.string().min(1).max(256),
  /** null → the provider's default endpoint. */
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable(),
  temperature: z.number().min(0).max(2).nullable(),
  contextWindow: z.number().int().min(512).max(10_000_000).nullable(),
  maxOutputTokens: z.number().int().min(16).max(1_000_000).nullable(),
  /** 'auto' uses tool calls and falls back to fenced code blocks when the provider refuses tools. */
  toolCalling: z.enum(['auto', 'off']),
  autoRun: z.boolean(),
  maxFailedAttempts: z.number().int().min(0).max(50),
  budgetUsd: z.number().min(0).max(100_000).nullable(),
  /** Sub-agents (docs/agent.md#sub-agents): how many run at once, the model calls each may make, the characters of its result the parent reads. */
  subagentsAtOnce: z.number().int().min(1).max(16),
  subagentModelCalls: z.number().int().min(1).max(200),
  subagentResultChars: z.number().int().min(200).max(100_000),
  /**
   * Anthropic extended thinking: the token budget, or null for off. It must also stay below the model's
   * output limit (or maxOutputTokens when set), which main checks because only main knows the models.
   */
  thinkingBudgetTokens: z
    .number()
    .int('the thinking budget must be a whole number of tokens')
    .min(MIN_THINKING_BUDGET_TOKENS, `the thinking budget must be at least ${MIN_THINKING_BUDGET_TOKENS} tokens (Anthropic's minimum)`)
    .max(1_000_000, 'the thinking budget must be at most 1,000,000 tokens')
    .nullable(),
  /** OpenAI-family reasoning models: sent as `reasoning_effort` when set; null → the model's default. */
  reasoningEffort: ReasoningEffort.nullable(),
  /** Checkpoints (docs/checkpoints.md): files larger than this are not recorded (and are listed on the cell). */
  checkpointMaxFileMb: z.number().int().min(1).max(10_240),
  /**
   * Ignored files (.gitignore) up to this size are recorded all the same, so a rewind puts back what a
   * cell deleted; larger ones, and ignored folders, are listed on the cell instead. `.env` and other
   * secrets-bearing files are always recorded (up to 10 MB). 0: only those.
   */
  checkpointIgnoredMaxKb: z.number().int().min(0).max(1_048_576),
  /** What one conversation's checkpoints may add to the store before its oldest are dropped. */
  checkpointBudgetMb: z.number().int().min(10).max(1_048_576),
  /** Checkpoints older than this many days are dropped. */
  checkpointKeepDays: z.number().int().min(1).max(3650),
  /** The whole store's size past which the oldest checkpoints of every conversation go first. */
  checkpointStoreMaxMb: z.number().int().min(50).max(10_485_760),
  /** Ollama: the largest context (num_ctx) the app asks for, whatever the model supports — memory grows with it. */
  ollamaMaxContext: z.number().int().min(2048).max(1_048_576),
  /** Ollama: how long the model stays loaded after a call ('30m', '2h', '-1' for ever, '0' to unload at once). */
  ollamaKeepAlive: z.string().regex(/^(-1|0|\d+(\.\d+)?(ms|s|m|h))$/, 'keep-alive is a duration such as 30m, 2h, 0 or -1'),
  customInstructions: z.string().max(100_000),
  workspaceRoot: z.string().max(4096).nullable(),
  /**
   * Folders (real paths) whose AGENTS.md / CLAUDE.md the model may read (docs/agent.md#project-instructions):
   * a workspace's files are a stranger's until the person trusts its folder.
   */
  trustedFolders: z.array(z.string().min(1).max(4096)).max(256),
  /** Memory (docs/agent.md#memory): the model may save notes (save_memory), given to every later conversation. */
  memory: z.boolean(),
  theme: z.enum(['system', 'light', 'dark']),
  /**
   * The desktop app looks for a new version at most daily (docs/release.md#updates). Only release
   * builds have a feed: a build the person made has none, whatever this says.
   */
  updates: z.boolean(),
  /** Largest .ipynb file import accepts, in bytes (a bigger one is refused before it is read). */
  notebookMaxBytes: z
    .number()
    .int()
    .min(1024)
    .max(512 * 1024 * 1024),
  exec: ExecSettings,
  sandbox: SandboxSettings,
  /**
   * The model and base URL last used with each provider, kept by main: switching back to a provider
   * brings them back instead of a default, and switching away never leaves a model the new provider
   * cannot serve.
   */
  providerModels: z.partialRecord(
    ProviderKind,
    z.object({
      model: z.string().min(1).max(256),
      baseUrl: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .nullable(),
    }),
  ),
  /** Start-up notices the user dismissed for good (their ids, such as 'no-keychain'). */
  dismissedNotices: z.array(z.string().max(64)).max(64),
  /** MCP servers whose tools the model may call (docs/mcp.md), by name. */
  mcpServers: z.record(McpServerName, McpServerConfig),
  /**
   * Clients of `oi mcp`, by the name each gives when it connects: what to do when one asks to run code
   * or write a file — ask in the desktop app (the default for a name not listed), allow, or refuse
   * (docs/mcp.md#approval-in-the-desktop-app).
   */
  mcpClients: z.record(McpClientName, McpClientPolicy),
  /** The person's own hooks (docs/agent.md#hooks), beside those of `<data folder>/hooks.json`. */
  hooks: HooksConfig,
  /** Outside ACP agents a conversation can be driven by (docs/acp.md#hosting), by name. */
  agents: z.record(AgentName, HostedAgentSpec),
  /** Which moments notify (docs/ui.md#notifications): the OS's, the browser's, the terminal's bell. */
  notifyOn: z.array(NotifyKind).max(4),
});

/** A change to settings: any top-level field, nested objects merged one level deep. */
export const SettingsPatch = Settings.omit({ version: true, exec: true, sandbox: true })
  .partial()
  .extend({
    exec: ExecSettings.partial().strict().optional(),
    sandbox: SandboxSettings.partial().strict().optional(),
  })
  .strict();

export type ProviderKind = z.infer<typeof ProviderKind>;
export type ReasoningEffort = z.infer<typeof ReasoningEffort>;
export type Settings = z.infer<typeof Settings>;
export type SettingsPatch = z.infer<typeof SettingsPatch>;
export type ExecSettings = z.infer<typeof ExecSettings>;
export type SandboxSettings = z.infer<typeof SandboxSettings>;
export type McpServerConfig = z.infer<typeof McpServerConfig>;
export type McpClientPolicy = z.infer<typeof McpClientPolicy>;

export const defaultSettings: Settings = {
  version: 2,
  provider: 'openai',
  model: 'gpt-4.1',
  baseUrl: null,
  temperature: null,
  contextWindow: null,
  maxOutputTokens: null,
  toolCalling: 'auto',
  autoRun: false,
  maxFailedAttempts: 3,
  budgetUsd: null,
  subagentsAtOnce: 3,
  subagentModelCalls: 15,
  subagentResultChars: 4000,
  thinkingBudgetTokens: null,
  reasoningEffort: null,
  checkpointMaxFileMb: 50,
  checkpointIgnoredMaxKb: 1024,
  checkpointBudgetMb: 2048,
  checkpointKeepDays: 30,
  checkpointStoreMaxMb: 10_240,
  ollamaMaxContext: 32_768,
  ollamaKeepAlive: '30m',
  customInstructions: '',
  workspaceRoot: null,
  trustedFolders: [],
  memory: true,
  theme: 'system',
  updates: true,
  notebookMaxBytes: 200 * 1024 * 1024,
  exec: {
    timeoutMs: 120_000,
    memoryMb: 4096,
    cpuSeconds: null,
    maxProcesses: 512,
    outputCapBytes: 8 * 1024 * 1024,
    modelOutputChars: 6000,
    pythonPath: null,
    env: {},
    autoInstall: 'ask',
    shell: 'auto',
    inputRequests: 'ask',
    inputWaitMs: 10 * 60 * 1000,
    sessionIdleMs: 30 * 60 * 1000,
  },
  sandbox: { enabled: true, chosen: false, allowNetwork: false, extraPaths: [], allowedHosts: [] },
  providerModels: {},
  dismissedNotices: [],
  mcpServers: {},
  mcpClients: {},
  hooks: {},
  agents: {},
  notifyOn: ['turn-done', 'turn-failed', 'approval', 'input'],
};
