import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Settings, type McpClientPolicy } from '@contract';
import { entriesIdentity } from '../fs/entry-identity';
import { SETTINGS_CONFIG_NAME } from '../settings/settings-file';

type Saved = Readonly<Record<string, McpClientPolicy>>;

const NONE: Saved = Object.freeze({});

/**
 * The saved choices for `oi mcp` clients (settings' mcpClients), as they are in the settings file at
 * each call: the desktop app may have just saved "Always allow" or "refuse" for a client. Read-only —
 * `oi mcp` never writes the app's settings; a missing or damaged file means "ask".
 * Reading and checking the whole file at every execute was a tenth of a millisecond of each warm call
 * (issue 37), so the last read is kept with the file's identity (fs/entry-identity.ts: device, inode,
 * size, mtime, ctime; a file changed within the last clock ticks is read again), taken before reading:
 * any save, edit, replacement or removal counts at the next call. A settings file that is a link is
 * read at every call, as before.
 */
export class ClientPolicies {
  private kept: { id: string; saved: Saved } | null = null;
  private readonly file: string;

  /** `now` is the wall clock the file's times are compared with (tests move it). */
  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(dataDir, `${SETTINGS_CONFIG_NAME}.json`);
  }

  /** The saved choice for a client name; absent: ask. */
  of(client: string): McpClientPolicy {
    return this.saved()[client] ?? 'ask';
  }

  /** Every saved choice (the same object while the file is unchanged). */
  saved(): Saved {
    const id = entriesIdentity([this.file], this.now());
    if (id !== null && this.kept?.id === id) return this.kept.saved;
    const saved = read(this.file);
    // A link is read through: its own identity does not tell a change of what it leads to.
    this.kept = id === null || isLink(id) ? null : { id, saved };
    return saved;
  }
}

/** An identity (entriesIdentity's dev:ino:mode:…) of a symbolic link. */
function isLink(id: string): boolean {
  return (Number(id.split(':')[2]) & 0o170000) === 0o120000;
}

function read(file: string): Saved {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { mcpClients?: unknown };
    const clients = Settings.shape.mcpClients.safeParse(raw?.mcpClients);
    return clients.success ? clients.data : NONE;
  } catch {
    return NONE;
  }
}
