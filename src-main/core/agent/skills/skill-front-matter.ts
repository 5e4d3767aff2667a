import { createRequire } from 'node:module';
import type { parseDocument as ParseDocument } from 'yaml';

// SKILL.md's front matter, as the open Agent Skills format defines it: a YAML block between two `---`
// lines at the very start, holding at least `name` (lowercase letters, digits and hyphens, at most 64)
// and `description` (at most 1,024 characters; what the skill does and when to use it). Other keys
// (license, allowed-tools, metadata…) are allowed and ignored. Parsed with the `yaml` package the app
// already depends on, in its strict form: a duplicate key, an alias or a syntax error is a problem
// named to the person, never a guess.

export type ParsedSkill = { ok: true; name: string; description: string; body: string } | { ok: false; reason: string };

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_NAME = 64;
export const MAX_DESCRIPTION = 1024;
/** Front matter longer than this is not a skill's header. */
const MAX_FRONT_MATTER = 8 * 1024;

// `yaml` loads on the first front matter read, not with the app: its modules are a tenth of every
// `oi`, `oi mcp` and `oi acp` start's module loading, and most starts read no skill or command file.
let parser: typeof ParseDocument | null = null;
const parseDocument: typeof ParseDocument = (...args: Parameters<typeof ParseDocument>) =>
  (parser ??= (createRequire(import.meta.url)('yaml') as { parseDocument: typeof ParseDocument }).parseDocument)(...args);

/**
 * A markdown file's YAML front matter, parsed strictly: `fields` is null when the file has none (a
 * saved command may have none; a skill must). `body` is the text after it, trimmed.
 */
export type FrontMatter = { ok: true; fields: Record<string, unknown> | null; body: string } | { ok: false; reason: string };

export function readFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { ok: true, fields: null, body: lines.join('\n').trim() };
  const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  if (end < 0) return { ok: false, reason: 'the front matter has no closing "---" line' };
  const header = lines.slice(1, end).join('\n');
  if (header.length > MAX_FRONT_MATTER) return { ok: false, reason: `the front matter is longer than ${MAX_FRONT_MATTER / 1024} KB` };
  const doc = parseDocument(header, { uniqueKeys: true, prettyErrors: false });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) return { ok: false, reason: `the front matter is not valid YAML: ${problem.message.split('\n')[0]}` };
  let value: unknown;
  try {
    // No aliases: a header has no use for them, and they are how YAML bombs grow.
    value = doc.toJS({ maxAliasCount: 0 });
  } catch (err) {
    return { ok: false, reason: `the front matter is not valid YAML: ${(err as Error).message}` };
  }
  // An empty block (`---` then `---`) is front matter with no keys.
  if (value === null || value === undefined) value = {};
  if (typeof value !== 'object' || Array.isArray(value))
    return { ok: false, reason: 'the front matter is not a set of "key: value" lines' };
  return {
    ok: true,
    fields: value as Record<string, unknown>,
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}

export function parseSkillFile(text: string): ParsedSkill {
  const front = readFrontMatter(text);
  if (!front.ok) return front;
  if (!front.fields)
    return { ok: false, reason: 'does not start with front matter (a "---" line, then name: and description:, then "---")' };
  const fields = front.fields;
  const name = fields.name;
  if (typeof name !== 'string' || name === '') return { ok: false, reason: 'the front matter has no name' };
  if (name.length > MAX_NAME || !NAME.test(name))
    return {
      ok: false,
      reason: `the name ${JSON.stringify(name.slice(0, 80))} is not lowercase letters, digits and single hyphens (at most ${MAX_NAME})`,
    };
  const description = fields.description;
  if (typeof description !== 'string' || description.trim() === '') return { ok: false, reason: 'the front matter has no description' };
  if (description.length > MAX_DESCRIPTION)
    return { ok: false, reason: `the description is ${description.length} characters; the format allows ${MAX_DESCRIPTION}` };
  return {
    ok: true,
    name,
    description: description.replace(/\s+/g, ' ').trim(),
    body: front.body,
  };
}
