import { z } from 'zod';
import { Attachment, Id } from '../model';
import { McpServerConfig, McpServerName } from '../settings';
import { Empty, Ok, type RequestSpec } from './shared';

// MCP servers, as the Settings page manages them (docs/mcp.md). Secret env values and headers go from
// the renderer to the keychain and never back: the settings file and every output name them only.

const SecretValue = z
  .string()
  .max(32_768)
  .refine((v) => v.trim().length > 0, 'a secret value is empty');

export const McpToolPolicy = z.enum(['ask', 'allow', 'disabled']);

export const McpToolInfo = z.object({
  /** The tool's own name on its server. */
  name: z.string(),
  description: z.string(),
  policy: McpToolPolicy,
  /** The server marks it read-only (annotations.readOnlyHint): its policy is then "allow" unless the user sets it to "ask". */
  readOnly: z.boolean(),
});

export const McpServerStatus = z.object({
  name: z.string(),
  state: z.enum(['idle', 'starting', 'connected', 'crashed', 'failed', 'disabled']),
  transport: z.enum(['stdio', 'http', 'sse']).nullable(),
  toolCount: z.number().int(),
  /** The tools as last listed (null before the server first connected). */
  tools: z.array(McpToolInfo).nullable(),
  lastError: z.string().nullable(),
  /** The last lines a stdio server wrote to stderr. */
  stderrTail: z.string(),
  /** Secret env/header names the entry refers to that the keychain holds no value for. */
  missingSecrets: z.array(z.string()),
  /** Crashes in a row; the next start waits 1 s, 2 s, 4 s … up to a minute. */
  restarts: z.number().int(),
});

/** A config file of another app that the import found where that app keeps it. */
export const McpImportSource = z.object({
  app: z.string(),
  path: z.string(),
  /** The server names in it, or why it cannot be read. */
  servers: z.array(z.string()),
  error: z.string().nullable(),
});

/** A resource a server offers, to attach to a message. */
export const McpResourceInfo = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  mimeType: z.string().nullable(),
  description: z.string(),
});

/** A prompt a server offers, shown in the composer as the slash command /<server>:<name>. */
export const McpPromptInfo = z.object({
  server: z.string(),
  name: z.string(),
  description: z.string(),
  arguments: z.array(z.object({ name: z.string(), description: z.string(), required: z.boolean() })),
});

export const mcpRequests = {
  /** The resources and prompts of every enabled server (starting servers as needed); `problems` names servers that could not be asked. */
  'mcp.catalog': {
    input: Empty,
    output: z.object({ resources: z.array(McpResourceInfo), prompts: z.array(McpPromptInfo), problems: z.array(z.string()) }),
  },
  /** Reads a server's resource into the conversation's attachments/ folder, to be sent with the next message. */
  'mcp.attach-resource': {
    input: z.object({ conversationId: Id, server: McpServerName, uri: z.string().min(1).max(4096) }).strict(),
    output: Attachment,
  },
  /** A prompt filled in with its arguments, as the text of a user message (the composer shows it to edit and send). */
  'mcp.prompt-text': {
    input: z
      .object({
        server: McpServerName,
        name: z.string().min(1).max(256),
        arguments: z.record(z.string().max(256), z.string().max(32_768)),
      })
      .strict(),
    output: z.object({ text: z.string() }),
  },
  'mcp.status': { input: Empty, output: z.array(McpServerStatus) },
  /** Starts the server now (or again), and answers with its state and tools. */
  'mcp.connect': { input: z.object({ name: McpServerName }).strict(), output: McpServerStatus },
  /**
   * Adds or replaces one server (renamed from `previousName` when given). `secretValues` are saved in
   * the keychain under the names the config's secretEnv / secretHeaders list; a listed name with no
   * value given must already be saved. Nothing is saved unless all of it is.
   */
  'mcp.save': {
    input: z
      .object({
        name: McpServerName,
        previousName: McpServerName.optional(),
        config: McpServerConfig,
        secretValues: z
          .object({
            env: z.record(z.string().max(256), SecretValue).optional(),
            headers: z.record(z.string().max(256), SecretValue).optional(),
          })
          .strict()
          .optional(),
      })
      .strict(),
    output: McpServerStatus,
  },
  /** Removes a server and its keychain entries. */
  'mcp.remove': { input: z.object({ name: McpServerName }).strict(), output: Ok },
  'mcp.set-enabled': { input: z.object({ name: McpServerName, enabled: z.boolean() }).strict(), output: McpServerStatus },
  /** Ask before each call (default), always allow, or never offer the tool. */
  'mcp.set-tool-policy': {
    input: z.object({ server: McpServerName, tool: z.string().min(1).max(256), policy: McpToolPolicy }).strict(),
    output: Ok,
  },
  /** The Claude Desktop / Cursor / VS Code / goose-style files found in their usual places. */
  'mcp.import-sources': { input: Empty, output: z.array(McpImportSource) },
  /**
   * Adds every server of a config file (`mcpServers`, VS Code's `servers`, or a bare map). Values of
   * env variables and headers that look like secrets go to the keychain. An invalid entry refuses the
   * whole file, naming the entry and field; a name already used is refused unless `replace`.
   */
  'mcp.import': {
    input: z.object({ path: z.string().min(1).max(4096), replace: z.boolean().optional() }).strict(),
    output: z.object({ added: z.array(z.string()), replaced: z.array(z.string()), toKeychain: z.array(z.string()) }),
  },
} as const satisfies Record<string, RequestSpec>;

export type McpToolPolicy = z.infer<typeof McpToolPolicy>;
export type McpToolInfo = z.infer<typeof McpToolInfo>;
export type McpServerStatus = z.infer<typeof McpServerStatus>;
export type McpImportSource = z.infer<typeof McpImportSource>;
export type McpResourceInfo = z.infer<typeof McpResourceInfo>;
export type McpPromptInfo = z.infer<typeof McpPromptInfo>;
