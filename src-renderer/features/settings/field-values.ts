import type { Settings, SettingsPatch } from '@contract';
import type { FieldPath, FieldSpec } from './settings-fields';

// A setting's value as a field handles it, apart from the table of fields (settings-fields.ts): read
// from the settings, shown in a text box, typed text turned back into a value, and the patch that
// saves it. These are the parts with logic (and unit tests); the table is data.

export function valueAt(settings: Settings, path: FieldPath): unknown {
  if (path.group === 'exec') return settings.exec[path.key];
  if (path.group === 'sandbox') return settings.sandbox[path.key];
  return settings[path.key];
}

export function patchFor(path: FieldPath, value: unknown): SettingsPatch {
  if (path.group === 'exec') return { exec: { [path.key]: value } };
  if (path.group === 'sandbox') return { sandbox: { [path.key]: value } };
  return { [path.key]: value };
}

/** How a stored value is shown in a text box. */
export function display(field: FieldSpec, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'number') return String(Number(value) / (field.factor ?? 1));
  if (field.kind === 'toggled-number') return scalarText(value);
  if (field.kind === 'lines') return (value as string[]).join('\n');
  if (field.kind === 'json') return typeof value === 'object' && Object.keys(value).length === 0 ? '' : JSON.stringify(value, null, 2);
  if (field.kind === 'env') {
    return Object.entries(value as Record<string, string>)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n');
  }
  return scalarText(value);
}

/** A stored setting that is a single value (string, number, boolean) as text; anything else as JSON. */
export function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/** Typed text → the value to send, or an error a person can act on. Range checks are the schema's. */
export function parse(field: FieldSpec, raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const text = raw.trim();
  switch (field.kind) {
    case 'number': {
      if (text === '') return field.nullable ? { ok: true, value: null } : { ok: false, error: 'a number is required' };
      const n = Number(text.replace(/[_,\s]/g, ''));
      if (!Number.isFinite(n)) return { ok: false, error: `“${raw}” is not a number` };
      const scaled = n * (field.factor ?? 1);
      return { ok: true, value: field.factor ? Math.round(scaled) : scaled };
    }
    case 'toggled-number': {
      // Off is the switch's job; the box always holds a number.
      if (text === '') return { ok: false, error: 'a number is required (turn the switch off instead)' };
      const n = Number(text.replace(/[_,\s]/g, ''));
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, error: `“${raw}” is not a number` };
    }
    case 'text':
      return text === '' && field.nullable ? { ok: true, value: null } : { ok: true, value: text };
    case 'env': {
      const env: Record<string, string> = {};
      for (const [i, line] of raw.split('\n').entries()) {
        if (!line.trim()) continue;
        const eq = line.indexOf('=');
        if (eq <= 0) return { ok: false, error: `line ${i + 1}: write NAME=value` };
        env[line.slice(0, eq).trim()] = line.slice(eq + 1);
      }
      return { ok: true, value: env };
    }
    case 'json': {
      if (text === '') return { ok: true, value: {} };
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch (err) {
        return { ok: false, error: `not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
      }
    }
    case 'lines':
      return {
        ok: true,
        value: raw
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      };
    default:
      return { ok: true, value: raw };
  }
}
