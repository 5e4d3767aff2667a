import type { McpServerConfig } from '@contract';
import { mcpNameLooksSecret } from '@contract/mcp-secret-names';

// The add/edit form's fields and the config they make. Lines of NAME=value for env and headers
// (headers also as "Name: value"); secrets are rows of a name and a masked value, typed, sent once to
// the keychain and never shown again. A line of env or headers whose name looks secret (…TOKEN,
// Authorization) becomes a secret too, so its value is neither saved in settings.json nor shown.

/** One secret: its name and a newly typed value, or '' to keep the one saved in the keychain. */
export interface SecretRow {
  name: string;
  value: string;
  /** The keychain holds a value for it already (an empty `value` keeps that one). */
  saved: boolean;
}

export interface ServerForm {
  name: string;
  kind: 'program' | 'url';
  command: string;
  args: string;
  cwd: string;
  env: string;
  url: string;
  transport: 'auto' | 'http' | 'sse';
  headers: string;
  secrets: SecretRow[];
}

export const emptyForm: ServerForm = {
  name: '',
  kind: 'program',
  command: '',
  args: '',
  cwd: '',
  env: '',
  url: '',
  transport: 'auto',
  headers: '',
  secrets: [],
};

export function formFrom(name: string, c: McpServerConfig): ServerForm {
  const saved = (names: string[] | undefined): SecretRow[] => (names ?? []).map((n) => ({ name: n, value: '', saved: true }));
  if ('url' in c) {
    const { plain, secret } = splitSecret(c.headers);
    return {
      ...emptyForm,
      name,
      kind: 'url',
      url: c.url,
      transport: c.type ?? 'auto',
      headers: lines(plain, ': '),
      secrets: [...saved(c.secretHeaders), ...secret],
    };
  }
  const { plain, secret } = splitSecret(c.env);
  return {
    ...emptyForm,
    name,
    kind: 'program',
    command: c.command,
    args: (c.args ?? []).join('\n'),
    cwd: c.cwd ?? '',
    env: lines(plain, '='),
    secrets: [...saved(c.secretEnv), ...secret],
  };
}

/**
 * A value written by hand into settings.json under a secret-looking name is shown as a masked secret
 * row, not in the text: saving the form moves it to the keychain.
 */
function splitSecret(map: Record<string, string> | undefined): { plain: Record<string, string>; secret: SecretRow[] } {
  const plain: Record<string, string> = {};
  const secret: SecretRow[] = [];
  for (const [k, v] of Object.entries(map ?? {})) {
    if (mcpNameLooksSecret(k) && v.trim() !== '') secret.push({ name: k, value: v, saved: false });
    else plain[k] = v;
  }
  return { plain, secret };
}

function lines(map: Record<string, string>, sep: string): string {
  return Object.entries(map)
    .map(([k, v]) => `${k}${sep}${v}`)
    .join('\n');
}

export type Built = { ok: true; config: McpServerConfig; secretValues: Record<string, string> } | { ok: false; error: string };

/** The config the form describes, or the first problem, naming the field and line. */
export function buildConfig(f: ServerForm, previous: McpServerConfig | undefined): Built {
  const secrets = secretRows(f);
  if (!secrets.ok) return secrets;
  const keep = {
    ...(previous?.alwaysAllow ? { alwaysAllow: previous.alwaysAllow } : {}),
    ...(previous?.disabledTools ? { disabledTools: previous.disabledTools } : {}),
    ...(previous?.askTools ? { askTools: previous.askTools } : {}),
    ...(previous?.disabled ? { disabled: true } : {}),
  };
  if (f.kind === 'url') {
    if (!f.url.trim()) return { ok: false, error: 'URL: give the server’s address (http:// or https://).' };
    const headers = pairs(f.headers, 'Headers', /[:=]/);
    if (!headers.ok) return headers;
    const { plain, secretValues, secretNames } = withSecrets(headers.map, secrets.rows);
    return {
      ok: true,
      secretValues,
      config: {
        url: f.url.trim(),
        ...(f.transport !== 'auto' ? { type: f.transport } : {}),
        ...(Object.keys(plain).length ? { headers: plain } : {}),
        ...(secretNames.length ? { secretHeaders: secretNames } : {}),
        ...keep,
      },
    };
  }
  if (!f.command.trim()) return { ok: false, error: 'Command: give the program that runs the server (npx, uvx, node, a path…).' };
  const env = pairs(f.env, 'Environment', /=/);
  if (!env.ok) return env;
  const { plain, secretValues, secretNames } = withSecrets(env.map, secrets.rows);
  const args = f.args
    .split('\n')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  return {
    ok: true,
    secretValues,
    config: {
      command: f.command.trim(),
      ...(args.length ? { args } : {}),
      ...(Object.keys(plain).length ? { env: plain } : {}),
      ...(secretNames.length ? { secretEnv: secretNames } : {}),
      ...(f.cwd.trim() ? { cwd: f.cwd.trim() } : {}),
      ...keep,
    },
  };
}

function pairs(text: string, field: string, sep: RegExp): { ok: true; map: Record<string, string> } | { ok: false; error: string } {
  const map: Record<string, string> = {};
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]?.trim() ?? '';
    if (row === '') continue;
    const at = row.search(sep);
    if (at <= 0) return { ok: false, error: `${field}, line ${i + 1}: write NAME=value.` };
    map[row.slice(0, at).trim()] = row.slice(at + 1).trim();
  }
  return { ok: true, map };
}

/** The secret rows checked: a name each, no name twice, a value for each one not saved yet. */
function secretRows(f: ServerForm): { ok: true; rows: SecretRow[] } | { ok: false; error: string } {
  const rows = f.secrets.map((r) => ({ ...r, name: r.name.trim() })).filter((r) => r.name !== '' || r.value !== '');
  const seen = new Set<string>();
  for (const [i, r] of rows.entries()) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(r.name))
      return { ok: false, error: `Secrets, row ${i + 1}: give a name (letters, digits, _ and -).` };
    if (seen.has(r.name)) return { ok: false, error: `Secrets, row ${i + 1}: ${r.name} is listed twice.` };
    seen.add(r.name);
    if (!r.saved && r.value.trim() === '') return { ok: false, error: `Secrets, row ${i + 1}: type the value of ${r.name}.` };
  }
  return { ok: true, rows };
}

/** Lines whose names look secret join the secret rows (their values go to the keychain, not the file). */
function withSecrets(
  map: Record<string, string>,
  rows: SecretRow[],
): { plain: Record<string, string>; secretValues: Record<string, string>; secretNames: string[] } {
  const plain: Record<string, string> = {};
  const secretValues: Record<string, string> = {};
  for (const r of rows) if (r.value !== '') secretValues[r.name] = r.value;
  const names = rows.map((r) => r.name);
  for (const [k, v] of Object.entries(map)) {
    if (mcpNameLooksSecret(k) && v !== '' && !names.includes(k)) {
      secretValues[k] = v;
      names.push(k);
    } else plain[k] = v;
  }
  return { plain, secretValues, secretNames: names };
}
