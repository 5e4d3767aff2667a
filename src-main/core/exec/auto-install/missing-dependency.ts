import type { CellOutput } from '@contract';
import type { RunResult } from '../engine/types';

// Recognizes a run that failed only because something was not installed: a Python module, a Node
// package, or a shell command. Only the error the language itself reports counts, never a string the
// program printed while succeeding.

export type MissingDependency =
  | { kind: 'python-module'; module: string; reason: string }
  | { kind: 'node-module'; specifier: string; reason: string }
  | { kind: 'command'; command: string; reason: string };

const PYTHON_MISSING = /No module named '([^']+)'/;
const NODE_MISSING = /Cannot find (?:module|package) '([^']+)'/;
/** bash ("bash: line 1: jq: command not found"), zsh ("command not found: jq"), dash ("sh: 1: jq: not found"). */
const COMMAND_MISSING = [
  /(?:^|\n)[^\n:]*: (?:line \d+: )?([^\s:/]+): command not found/,
  /command not found: ([^\s:/]+)/,
  /(?:^|\n)sh: \d+: ([^\s:/]+): not found/,
];

export function findMissingDependency(language: string, result: RunResult): MissingDependency | null {
  if (result.status !== 'failed') return null;
  const errors = result.outputs.filter((o): o is Extract<CellOutput, { output_type: 'error' }> => o.output_type === 'error');
  const text = result.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
  if (language === 'python') {
    const error = errors.find((e) => e.ename === 'ModuleNotFoundError' || e.ename === 'ImportError');
    const match = error ? PYTHON_MISSING.exec(error.evalue) : null;
    return match?.[1] ? { kind: 'python-module', module: match[1], reason: `${error?.ename}: ${error?.evalue}` } : null;
  }
  if (language === 'javascript') {
    for (const source of [...errors.map((e) => `${e.evalue}\n${e.traceback.join('\n')}`), text]) {
      const match = NODE_MISSING.exec(source);
      if (match?.[1]) return { kind: 'node-module', specifier: match[1], reason: match[0] };
    }
    return null;
  }
  if (language === 'shell' || language === 'zsh') {
    // A node script run from the shell resolves packages from the workspace too.
    const node = NODE_MISSING.exec(text);
    if (node?.[1] && /\bnode(?::internal|\s|$)|Require stack|ERR_MODULE_NOT_FOUND/.test(text)) {
      return { kind: 'node-module', specifier: node[1], reason: node[0] };
    }
    if (result.exitCode !== 127) return null;
    for (const pattern of COMMAND_MISSING) {
      const match = pattern.exec(text);
      if (match?.[1]) return { kind: 'command', command: match[1], reason: match[0].trim() };
    }
  }
  return null;
}
