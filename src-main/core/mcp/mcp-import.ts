import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { McpServerConfig, McpServerName, type McpImportSource } from '@contract';
import { McpImportError } from './mcp-import-error';
import { gooseExtensions } from './mcp-import-goose';
import { looksSecret } from './mcp-secrets';
import { errorMessage } from '@contract/error-message';

export { McpImportError };

// Reading another app's MCP config file: Claude Desktop, Claude Code, Cursor, Windsurf, Cline/Roo
// (`mcpServers`), VS Code (`servers` in .vscode/mcp.json or the user mcp.json, `mcp.servers` in its
// settings.json), goose (`extensions` in its YAML config.yaml). Every entry is checked before anything
// is saved; an invalid one refuses the file.

const MAX_FILE_BYTES = 1024 * 1024;

export interface ImportedServer {
  name: string;
  config: McpServerConfig;
  /** Values moved out of env / headers, to be saved in the keychain. */
  secrets: { env: Record<string, string>; headers: Record<string, string> };
}

export async function readConfigFile(given: string): Promise<unknown> {
  // A typed "~/.cursor/mcp.json" means the home folder, as in a shell.
  const file = given === '~' || given.startsWith('~/') ? path.join(os.homedir(), given.slice(1)) : given;
  const info = await stat(file).catch(() => null);
  if (!info) throw new McpImportError(`There is no file at ${file}.`);
  if (!info.isFile()) throw new McpImportError(`${file} is not a file.`);
  if (info.size > MAX_FILE_BYTES) throw new McpImportError(`${file} is ${info.size} bytes; an MCP config file is at most 1 MB.`);
  const text = await readFile(file, 'utf8');
  if (/\.ya?ml$/i.test(file)) {
    // Loaded here, not at the top: this module is in the core every `oi` start loads, and resolving
    // the package's files cost every start time for a file few ever import.
    const { parse: parseYaml } = await import('yaml');
    try {
      // The `yaml` package (docs/mcp.md): YAML 1.2's core schema, no tags that build objects, and its
      // cap on alias expansion keeps a "billion laughs" file from blowing up memory.
      return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true }) as unknown;
    } catch (err) {
      throw new McpImportError(`${file} is not valid YAML: ${errorMessage(err).split('\n')[0]}`);
    }
  }
  try {
    return JSON.parse(stripJsonComments(text));
  } catch (err) {
    throw new McpImportError(`${file} is not valid JSON: ${errorMessage(err)}`);
  }
}

/** The servers a parsed config file holds, normalised to our shape, secrets taken out of it. */
export function serversOf(json: unknown, file: string): ImportedServer[] {
  const { map, where } = findServerMap(json, file);
  const out: ImportedServer[] = [];
  const seen = new Set<string>();
  for (const [rawName, entry] of Object.entries(map)) {
    const field = `${where}.${rawName}`;
    const name = serverName(rawName, field);
    if (seen.has(name)) throw new McpImportError(`${field}: the name becomes "${name}", which another entry of the file already has.`);
    seen.add(name);
    out.push({ name, ...normalise(entry, field) });
  }
  if (out.length === 0)
    throw new McpImportError(
      `${file} lists no MCP servers under ${where}${where === 'extensions' ? " (goose's own builtin extensions are not servers)" : ''}.`,
    );
  return out;
}

/** The known config files that exist on this machine, with the servers each names. */
export async function importSources(home: string = os.homedir(), platform: NodeJS.Platform = process.platform): Promise<McpImportSource[]> {
  const appData =
    platform === 'win32'
      ? (process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : path.join(home, '.config');
  const candidates: Array<[string, string]> = [
    ['Claude Desktop', path.join(appData, 'Claude', 'claude_desktop_config.json')],
    ['Claude Code', path.join(home, '.claude.json')],
    ['Cursor', path.join(home, '.cursor', 'mcp.json')],
    ['VS Code', path.join(appData, 'Code', 'User', 'mcp.json')],
    ['Windsurf', path.join(home, '.codeium', 'windsurf', 'mcp_config.json')],
    // goose reads ~/.config/goose on macOS too; on Windows it is under %APPDATA%\Block\goose\config.
    [
      'goose',
      platform === 'win32'
        ? path.join(appData, 'Block', 'goose', 'config', 'config.yaml')
        : path.join(home, '.config', 'goose', 'config.yaml'),
    ],
  ];
  const found: McpImportSource[] = [];
  for (const [app, file] of candidates) {
    if (!(await stat(file).catch(() => null))) continue;
    try {
      found.push({ app, path: file, servers: serversOf(await readConfigFile(file), file).map((s) => s.name), error: null });
    } catch (err) {
      found.push({ app, path: file, servers: [], error: errorMessage(err) });
    }
  }
  return found;
}

function findServerMap(json: unknown, file: string): { map: Record<string, unknown>; where: string } {
  if (!isObject(json)) throw new McpImportError(`${file} does not hold a JSON object (a YAML mapping).`);
  if (isObject(json.mcpServers)) return { map: json.mcpServers, where: 'mcpServers' };
  if (isObject(json.extensions)) return { map: gooseExtensions(json.extensions), where: 'extensions' };
  if (isObject(json.servers)) return { map: json.servers, where: 'servers' };
  const vscode = json['mcp'];
  if (isObject(vscode) && isObject(vscode.servers)) return { map: vscode.servers, where: 'mcp.servers' };
  if (isObject(json['mcp.servers'])) return { map: json['mcp.servers'], where: '"mcp.servers"' };
  // A bare map of servers (what the common format's value looks like on its own).
  const values = Object.values(json);
  if (values.length > 0 && values.every((v) => isObject(v) && ('command' in v || 'url' in v))) return { map: json, where: '(top level)' };
  throw new McpImportError(`${file} has no "mcpServers" (Claude Desktop, Cursor), "servers" (VS Code) or "extensions" (goose) object.`);
}

function serverName(raw: string, field: string): string {
  const name = raw
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .replace(/-_|_-/g, '-')
    .slice(0, 48)
    .replace(/_+$/, '');
  if (!McpServerName.safeParse(name).success)
    throw new McpImportError(`${field}: "${raw}" cannot be made into a server name (letters, digits, - and _).`);
  return name;
}

function normalise(entry: unknown, field: string): Omit<ImportedServer, 'name'> {
  if (!isObject(entry)) throw new McpImportError(`${field}: an entry must be an object with "command" or "url".`);
  const type = entry.type ?? entry.transport;
  const url = entry.url ?? entry.serverUrl;
  for (const [key, value] of Object.entries(entry)) {
    const variable = /\$\{(input|env|workspaceFolder|userHome)[^}]*\}/.exec(JSON.stringify(value) ?? '');
    if (variable)
      throw new McpImportError(
        `${field}.${key}: uses ${variable[0]}, which this app does not expand; write the value itself (secrets can go to the keychain in Settings).`,
      );
  }
  if (entry.envFile !== undefined) throw new McpImportError(`${field}.envFile: env files are not read; put the variables in "env".`);
  const secrets = { env: {} as Record<string, string>, headers: {} as Record<string, string> };
  let candidate: Record<string, unknown>;
  if (url !== undefined) {
    if (type !== undefined && type !== 'http' && type !== 'sse' && type !== 'streamable-http' && type !== 'streamableHttp') {
      throw new McpImportError(`${field}.type: ${JSON.stringify(type)} is not a transport for a URL (http or sse).`);
    }
    const headers = stringMap(entry.headers, `${field}.headers`);
    const { plain, secret } = split(headers);
    secrets.headers = secret;
    candidate = {
      url,
      ...(type === 'sse' ? { type: 'sse' } : {}),
      ...(Object.keys(plain).length ? { headers: plain } : {}),
      ...(Object.keys(secret).length ? { secretHeaders: Object.keys(secret) } : {}),
    };
  } else if (entry.command !== undefined) {
    if (type !== undefined && type !== 'stdio') throw new McpImportError(`${field}.type: ${JSON.stringify(type)} needs a "url".`);
    const env = stringMap(entry.env, `${field}.env`);
    const { plain, secret } = split(env);
    secrets.env = secret;
    candidate = {
      command: entry.command,
      ...(entry.args !== undefined ? { args: entry.args } : {}),
      ...(Object.keys(plain).length ? { env: plain } : {}),
      ...(Object.keys(secret).length ? { secretEnv: Object.keys(secret) } : {}),
      ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
    };
  } else {
    throw new McpImportError(`${field}: has neither "command" (a program) nor "url" (an HTTP server).`);
  }
  for (const key of ['disabled', 'alwaysAllow', 'disabledTools', 'askTools'] as const)
    if (entry[key] !== undefined) candidate[key] = entry[key];
  const parsed = McpServerConfig.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.length ? `${field}.${issue.path.join('.')}` : field;
    throw new McpImportError(`${at}: ${issue?.message ?? 'invalid'}`);
  }
  return { config: parsed.data, secrets };
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new McpImportError(`${field}: must be an object of names to text values.`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new McpImportError(`${field}.${k}: must be text, not ${v === null ? 'null' : typeof v}.`);
    out[k] = v;
  }
  return out;
}

function split(values: Record<string, string>): { plain: Record<string, string>; secret: Record<string, string> } {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) (looksSecret(k) && v.trim() !== '' ? secret : plain)[k] = v;
  return { plain, secret };
}

/** VS Code's and Cursor's files allow // and /* comments and trailing commas (JSONC). */
function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (ch === ',' && /^\s*[}\]]/.test(text.slice(i + 1, i + 200))) {
      // A trailing comma: dropped.
    } else out += ch;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
