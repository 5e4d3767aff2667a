import type { McpServerConfig, McpToolPolicy, Settings } from '@contract';
import type { SecretStore } from '../secrets/secret-store';
import type { SettingsStore } from '../settings/settings-store';
import { importSources, McpImportError, readConfigFile, serversOf } from './mcp-import';
import type { McpManager } from './mcp-manager';
import { MCP_ACCOUNT_PREFIX, mcpSecretAccount, secretRefs, type McpSecretKind } from './mcp-secrets';

export interface SecretValues {
  env?: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * Changes to settings.mcpServers made from the Settings page: one server saved, removed, turned on
 * or off, a tool's policy, a whole file imported. Secrets are written to the keychain first and put
 * back as they were if the settings cannot be saved, so nothing is ever half-saved.
 */
export class McpConfigService {
  constructor(private readonly deps: { settings: SettingsStore; secrets: SecretStore; mcp: McpManager; secretsChanged: () => void }) {}

  private get servers(): Settings['mcpServers'] {
    return this.deps.settings.get().mcpServers;
  }

  async save(name: string, config: McpServerConfig, values: SecretValues = {}, previousName?: string): Promise<void> {
    const servers = this.servers;
    const from = previousName ?? name;
    if (previousName && !servers[previousName]) throw new Error(`There is no MCP server named "${previousName}" to change.`);
    if (name !== from && servers[name]) throw new Error(`An MCP server named "${name}" already exists.`);
    const old = servers[from];
    // Tool choices are made on the tool list, not in the form: they stay unless the form sends them.
    const next: McpServerConfig = {
      ...config,
      ...(old?.alwaysAllow && !config.alwaysAllow ? { alwaysAllow: old.alwaysAllow } : {}),
      ...(old?.disabledTools && !config.disabledTools ? { disabledTools: old.disabledTools } : {}),
      ...(old?.askTools && !config.askTools ? { askTools: old.askTools } : {}),
    };
    const writes = await this.secretWrites(name, next, values, old ? { name: from, config: old } : null);
    const rest = Object.fromEntries(Object.entries(servers).filter(([n]) => n !== from));
    await this.commit({ ...rest, [name]: next }, writes);
    await this.deps.mcp.restart(from);
    if (from !== name) await this.deps.mcp.restart(name);
  }

  async remove(name: string): Promise<void> {
    if (!this.servers[name]) throw new Error(`There is no MCP server named "${name}".`);
    const rest = Object.fromEntries(Object.entries(this.servers).filter(([n]) => n !== name));
    await this.commit(rest, []);
    await this.deps.mcp.restart(name);
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const c = this.servers[name];
    if (!c) throw new Error(`There is no MCP server named "${name}".`);
    const { disabled: _was, ...rest } = c;
    await this.commit({ ...this.servers, [name]: enabled ? rest : { ...rest, disabled: true } }, []);
    if (!enabled) await this.deps.mcp.restart(name);
  }

  async setToolPolicy(server: string, tool: string, policy: McpToolPolicy): Promise<void> {
    const c = this.servers[server];
    if (!c) throw new Error(`There is no MCP server named "${server}".`);
    const allow = (c.alwaysAllow ?? []).filter((t) => t !== tool);
    const off = (c.disabledTools ?? []).filter((t) => t !== tool);
    const ask = (c.askTools ?? []).filter((t) => t !== tool);
    if (policy === 'allow') allow.push(tool);
    if (policy === 'disabled') off.push(tool);
    // "Ask" needs keeping only for a tool its server marks read-only: that one is allowed by default.
    if (policy === 'ask' && this.deps.mcp.isReadOnly(server, tool)) ask.push(tool);
    const { alwaysAllow: _a, disabledTools: _d, askTools: _k, ...rest } = c;
    const next: McpServerConfig = {
      ...rest,
      ...(allow.length ? { alwaysAllow: allow } : {}),
      ...(off.length ? { disabledTools: off } : {}),
      ...(ask.length ? { askTools: ask } : {}),
    };
    await this.commit({ ...this.servers, [server]: next }, []);
  }

  async importFile(file: string, replace: boolean): Promise<{ added: string[]; replaced: string[]; toKeychain: string[] }> {
    const imported = serversOf(await readConfigFile(file), file);
    const servers = this.servers;
    const clash = imported.filter((s) => servers[s.name]).map((s) => s.name);
    if (clash.length && !replace) {
      throw new McpImportError(
        `Already configured: ${clash.join(', ')}. Import again choosing to replace them, or rename them first; nothing was imported.`,
      );
    }
    const next = { ...servers };
    const writes: SecretWrite[] = [];
    const toKeychain: string[] = [];
    for (const s of imported) {
      next[s.name] = s.config;
      for (const [kind, map] of [
        ['env', s.secrets.env],
        ['header', s.secrets.headers],
      ] as const) {
        for (const [n, value] of Object.entries(map)) {
          writes.push({ account: mcpSecretAccount(s.name, kind, n), value });
          toKeychain.push(`${s.name}: ${n}`);
        }
      }
    }
    await this.commit(next, writes);
    for (const name of clash) await this.deps.mcp.restart(name);
    return { added: imported.filter((s) => !clash.includes(s.name)).map((s) => s.name), replaced: clash, toKeychain };
  }

  sources = importSources;

  /** The keychain writes a save needs; refuses a listed secret that has no value given or saved. */
  private async secretWrites(
    name: string,
    config: McpServerConfig,
    values: SecretValues,
    old: { name: string; config: McpServerConfig } | null,
  ): Promise<SecretWrite[]> {
    const kind: McpSecretKind = 'url' in config ? 'header' : 'env';
    const given = ('url' in config ? values.headers : values.env) ?? {};
    const other = 'url' in config ? values.env : values.headers;
    if (other && Object.keys(other).length)
      throw new Error(
        `secretValues.${kind === 'env' ? 'headers' : 'env'}: a ${kind === 'env' ? 'program (command)' : 'URL'} server has no ${kind === 'env' ? 'headers' : 'env'}.`,
      );
    const listed = new Set(secretRefs(name, config).map((r) => r.name));
    const plain = 'url' in config ? (config.headers ?? {}) : (config.env ?? {});
    const field = kind === 'env' ? 'secretEnv' : 'secretHeaders';
    for (const n of Object.keys(given)) if (!listed.has(n)) throw new Error(`secretValues: "${n}" is not in config.${field}.`);
    for (const n of listed)
      if (n in plain)
        throw new Error(
          `config.${field}: "${n}" is also a plain value in config.${kind === 'env' ? 'env' : 'headers'}; keep it in one place.`,
        );
    const writes: SecretWrite[] = [];
    for (const n of listed) {
      const account = mcpSecretAccount(name, kind, n);
      const value = given[n];
      if (value !== undefined) {
        writes.push({ account, value });
        continue;
      }
      if ((await this.deps.secrets.get(account)) !== null) continue;
      // Renamed: the value saved under the old name moves with it.
      const oldValue = old ? await this.deps.secrets.get(mcpSecretAccount(old.name, kind, n)) : null;
      if (oldValue === null) throw new Error(`config.${field}: "${n}" needs a value (none is saved in the keychain yet).`);
      writes.push({ account, value: oldValue });
    }
    return writes;
  }

  /** Keychain writes, then settings; on failure the keychain is put back. Unused entries are removed after. */
  private async commit(next: Settings['mcpServers'], writes: SecretWrite[]): Promise<void> {
    const before: Array<{ account: string; value: string | null }> = [];
    try {
      for (const w of writes) {
        before.push({ account: w.account, value: await this.deps.secrets.get(w.account) });
        await this.deps.secrets.set(w.account, w.value);
      }
      this.deps.settings.update({ mcpServers: next });
    } catch (err) {
      for (const b of before.reverse()) {
        await (b.value === null ? this.deps.secrets.delete(b.account) : this.deps.secrets.set(b.account, b.value)).catch(() => undefined);
      }
      this.deps.secretsChanged();
      throw err;
    }
    await this.dropUnused(next);
    this.deps.secretsChanged();
  }

  private async dropUnused(servers: Settings['mcpServers']): Promise<void> {
    const used = new Set(Object.entries(servers).flatMap(([n, c]) => secretRefs(n, c).map((r) => r.account)));
    for (const account of await this.deps.secrets.accounts().catch(() => [] as string[])) {
      if (account.startsWith(MCP_ACCOUNT_PREFIX) && !used.has(account)) await this.deps.secrets.delete(account).catch(() => undefined);
    }
  }
}

interface SecretWrite {
  account: string;
  value: string;
}
