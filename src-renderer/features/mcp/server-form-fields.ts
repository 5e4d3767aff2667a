import type { McpServerConfig } from '@contract';

// The add/edit form's text fields and the config they make. Lines of NAME=value for env and headers
// (headers also as "Name: value"); secret values are typed, sent once and never shown again.

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
  /** Secret names, one a line, each with a newly typed value or none (keep the saved one). */
  secrets: string;
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
  secrets: '',
};

export function formFrom(name: string, c: McpServerConfig): ServerForm {
  if ('url' in c) {
    return {
      ...emptyForm,
      name,
      kind: 'url',
      url: c.url,
      transport: c.type ?? 'auto',
      headers: lines(c.headers, ': '),
      secrets: (c.secretHeaders ?? []).map((n) => `${n}=`).join('\n'),
    };
  }
  return {
    ...emptyForm,
    name,
    kind: 'program',
    command: c.command,
    args: (c.args ?? []).join('\n'),
    cwd: c.cwd ?? '',
    env: lines(c.env, '='),
    secrets: (c.secretEnv ?? []).map((n) => `${n}=`).join('\n'),
  };
}

function lines(map: Record<string, string> | undefined, sep: string): string {
  return Object.entries(map ?? {})
    .map(([k, v]) => `${k}${sep}${v}`)
    .join('\n');
}

export type Built = { ok: true; config: McpServerConfig; secretValues: Record<string, string> } | { ok: false; error: string };

/** The config the form describes, or the first problem, naming the field and line. */
export function buildConfig(f: ServerForm, previous: McpServerConfig | undefined): Built {
  const secrets = pairs(f.secrets, 'Secrets', /=/);
  if (!secrets.ok) return secrets;
  const secretValues = Object.fromEntries(Object.entries(secrets.map).filter(([, v]) => v !== ''));
  const keep = {
    ...(previous?.alwaysAllow ? { alwaysAllow: previous.alwaysAllow } : {}),
    ...(previous?.disabledTools ? { disabledTools: previous.disabledTools } : {}),
    ...(previous?.disabled ? { disabled: true } : {}),
  };
  const secretNames = Object.keys(secrets.map);
  if (f.kind === 'url') {
    if (!f.url.trim()) return { ok: false, error: 'URL: give the server’s address (http:// or https://).' };
    const headers = pairs(f.headers, 'Headers', /[:=]/);
    if (!headers.ok) return headers;
    return {
      ok: true,
      secretValues,
      config: {
        url: f.url.trim(),
        ...(f.transport !== 'auto' ? { type: f.transport } : {}),
        ...(Object.keys(headers.map).length ? { headers: headers.map } : {}),
        ...(secretNames.length ? { secretHeaders: secretNames } : {}),
        ...keep,
      },
    };
  }
  if (!f.command.trim()) return { ok: false, error: 'Command: give the program that runs the server (npx, uvx, node, a path…).' };
  const env = pairs(f.env, 'Environment', /=/);
  if (!env.ok) return env;
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
      ...(Object.keys(env.map).length ? { env: env.map } : {}),
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
