import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Settings, type McpClientPolicy } from '@contract';
import { SETTINGS_CONFIG_NAME } from '../settings/settings-file';

/**
 * The saved choice for an `oi mcp` client (settings' mcpClients), read from the settings file at each
 * call: the desktop app may have just saved "Always allow" for it. Read-only — `oi mcp` never writes
 * the app's settings; a missing or damaged file means "ask".
 */
export function savedClientPolicy(dataDir: string, client: string): McpClientPolicy {
  try {
    const raw = JSON.parse(readFileSync(path.join(dataDir, `${SETTINGS_CONFIG_NAME}.json`), 'utf8')) as { mcpClients?: unknown };
    const clients = Settings.shape.mcpClients.safeParse(raw.mcpClients);
    return (clients.success ? clients.data[client] : undefined) ?? 'ask';
  } catch {
    return 'ask';
  }
}
