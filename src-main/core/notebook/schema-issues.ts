import type { z } from 'zod';

// Turns zod issues into sentences a user can act on: which cell, which field, what was expected.
// Cells and outputs are unions over their type; zod reports every branch's complaints, so the branch
// that matches the value's own cell_type / output_type is the one worth reporting.

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

const TAG_KEYS = ['cell_type', 'output_type'] as const;

export function describeIssues(issues: readonly Issue[], input: unknown, limit = 5): string[] {
  const flat = issues.flatMap((issue) => flatten(issue, [], input));
  const messages = [...new Set(flat.map((f) => sentence(f.path, f.issue, input)))];
  if (messages.length > limit) {
    return [...messages.slice(0, limit), `…and ${messages.length - limit} more problems`];
  }
  return messages;
}

interface FlatIssue {
  path: PathKey[];
  issue: Issue;
}

function flatten(issue: Issue, prefix: PathKey[], input: unknown): FlatIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union') return [{ path, issue }];
  const value = valueAt(input, path);
  const tagKey = isRecord(value) ? (TAG_KEYS.find((key) => key in value) ?? tagFromPlace(path)) : undefined;
  if (!tagKey) {
    // A value that is not a tagged object: the union's own message says what forms are allowed.
    return [{ path, issue }];
  }
  const matching = issue.errors.find((branch) => !branch.some((inner) => inner.path.length === 1 && inner.path[0] === tagKey));
  if (!matching) return [{ path: [...path, tagKey], issue: { ...issue, message: unknownTagMessage(tagKey) } }];
  return matching.flatMap((inner) => flatten(inner, path, input));
}

/** Items of "cells" are tagged by cell_type, items of "outputs" by output_type, even when the tag is missing. */
function tagFromPlace(path: PathKey[]): (typeof TAG_KEYS)[number] | undefined {
  const parent = path[path.length - 2];
  if (parent === 'cells') return 'cell_type';
  if (parent === 'outputs') return 'output_type';
  return undefined;
}

function unknownTagMessage(tagKey: string): string {
  return tagKey === 'cell_type'
    ? 'expected "markdown", "code" or "raw" (or another type name as a string)'
    : 'expected "stream", "display_data", "execute_result" or "error" (or another type name as a string)';
}

function sentence(path: PathKey[], issue: Issue, input: unknown): string {
  return `${where(path, input)}: ${what(path, issue, input)}`;
}

/** "cell 3 (code), field outputs[0].text" or "notebook field metadata.kernelspec.name". */
export function where(path: PathKey[], input: unknown): string {
  if (path[0] === 'cells' && typeof path[1] === 'number') {
    const cell = valueAt(input, path.slice(0, 2));
    const type = isRecord(cell) && typeof cell.cell_type === 'string' ? ` (${cell.cell_type})` : '';
    const field = fieldName(path.slice(2));
    return `cell ${path[1]}${type}${field ? `, field ${field}` : ''}`;
  }
  const field = fieldName(path);
  return field ? `notebook field ${field}` : 'notebook';
}

function fieldName(path: PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function what(path: PathKey[], issue: Issue, input: unknown): string {
  const value = valueAt(input, path);
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? `is missing (expected ${issue.expected})` : `expected ${issue.expected}, got ${describe(value)}`;
    case 'unrecognized_keys':
      return `unexpected field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (the format does not allow ${issue.keys.length > 1 ? 'them' : 'it'} here)`;
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${describe(value)}`;
    case 'too_small':
      return `expected at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}, got ${describe(value)}`;
    case 'too_big':
      return `expected at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}, got ${describe(value)}`;
    case 'invalid_union':
      return `${issue.message}, got ${describe(value)}`;
    default:
      return issue.message;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return value.length > 40 ? `a ${value.length}-character string` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  return typeof value;
}

function valueAt(input: unknown, path: readonly PathKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else if (isRecord(current) && typeof key === 'string') current = current[key];
    else return undefined;
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
