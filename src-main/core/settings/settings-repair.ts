import { z } from 'zod';
import { defaultSettings, Settings } from '@contract';

export interface RepairResult {
  settings: Settings;
  /** Fields present with a value the schema refuses, reset to their defaults ('temperature', 'exec.timeoutMs'). */
  invalid: string[];
  /** Fields the schema does not know, dropped. */
  unknown: string[];
}

type Shape = Record<string, z.ZodType>;

/**
 * Keeps every field that is valid and falls back to the default for each one that is not, one level into
 * the nested groups (exec, sandbox); a record such as exec.env is kept or reset as a whole. Missing fields
 * take their defaults silently: that is how a field added to the schema reaches an older file.
 */
export function repairSettings(document: Record<string, unknown>): RepairResult {
  const invalid: string[] = [];
  const unknown: string[] = [];
  const repaired = repairObject(Settings.shape, defaultSettings, document, '', invalid, unknown);
  repaired.version = defaultSettings.version;
  const checked = Settings.safeParse(repaired);
  // Only a rule spanning several fields could fail here, and the schema has none yet; be safe anyway.
  if (!checked.success) return { settings: structuredClone(defaultSettings), invalid: ['(all fields)'], unknown };
  return { settings: checked.data, invalid, unknown };
}

function repairObject(
  shape: Shape,
  defaults: object,
  value: Record<string, unknown>,
  prefix: string,
  invalid: string[],
  unknown: string[],
): Record<string, unknown> {
  const fallback = defaults as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const path = prefix + key;
    if (!Object.hasOwn(value, key)) {
      result[key] = structuredClone(fallback[key]);
      continue;
    }
    const field = value[key];
    if (schema instanceof z.ZodObject && isPlainObject(field)) {
      result[key] = repairObject(schema.shape, fallback[key] as object, field, `${path}.`, invalid, unknown);
      continue;
    }
    const parsed = schema.safeParse(field);
    if (parsed.success) {
      result[key] = parsed.data;
    } else {
      invalid.push(path);
      result[key] = structuredClone(fallback[key]);
    }
  }
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(shape, key)) unknown.push(prefix + key);
  }
  return result;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
