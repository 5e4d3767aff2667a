import type { ProviderKind, Settings } from '@contract';
import { PROVIDER_LABEL, PROVIDERS } from '../common/providers';

// Every user-facing setting, described once: where it lives and how it is shown. How typed text becomes
// a value is field-values.ts; validation is the contract's own schema (SettingsPatch), so the screen
// and main agree.

export type FieldPath =
  | { group: null; key: Exclude<keyof Settings, 'version' | 'exec' | 'sandbox'> }
  | { group: 'exec'; key: keyof Settings['exec'] }
  | { group: 'sandbox'; key: keyof Settings['sandbox'] };

interface Base {
  id: string;
  label: string;
  help?: string;
  path: FieldPath;
  /** Shown only while one of these is the chosen provider (a setting no other provider reads). */
  providers?: ProviderKind[];
}

export type FieldSpec =
  | (Base & { kind: 'select'; options: Array<[string, string]> })
  | (Base & { kind: 'toggle' })
  | (Base & { kind: 'text'; nullable: boolean; placeholder?: string })
  | (Base & { kind: 'textarea' })
  /** A list of strings, one per line (blank lines dropped). */
  | (Base & { kind: 'lines'; placeholder?: string })
  | (Base & { kind: 'number'; nullable: boolean; unit?: string; factor?: number; placeholder?: string })
  /** A number that may be off (null): a switch (the field's label) and the number beside it, with its own label. */
  | (Base & { kind: 'toggled-number'; valueLabel: string; unit?: string; onValue: number })
  | (Base & { kind: 'env' })
  /** A JSON value typed as text (the hooks); the contract's schema checks its shape. */
  | (Base & { kind: 'json'; placeholder?: string });

export interface Section {
  title: string;
  fields: FieldSpec[];
}

const top = (key: Extract<FieldPath, { group: null }>['key']): FieldPath => ({ group: null, key });
const exec = (key: keyof Settings['exec']): FieldPath => ({ group: 'exec', key });
const sandbox = (key: keyof Settings['sandbox']): FieldPath => ({ group: 'sandbox', key });

export const SECTIONS: Section[] = [
  {
    title: 'Model',
    fields: [
      { id: 'provider', label: 'Provider', kind: 'select', path: top('provider'), options: PROVIDERS.map((p) => [p, PROVIDER_LABEL[p]]) },
      { id: 'model', label: 'Model', kind: 'text', nullable: false, path: top('model') },
      {
        id: 'baseUrl',
        label: 'Base URL',
        kind: 'text',
        nullable: true,
        path: top('baseUrl'),
        placeholder: 'the provider’s default',
        help: 'For Ollama, LM Studio, vLLM and other OpenAI-compatible servers.',
      },
      {
        id: 'temperature',
        label: 'Temperature',
        kind: 'number',
        nullable: true,
        path: top('temperature'),
        placeholder: 'model default',
        help: '0 to 2.',
      },
      {
        id: 'contextWindow',
        label: 'Context window',
        kind: 'number',
        nullable: true,
        unit: 'tokens',
        path: top('contextWindow'),
        placeholder: 'model default',
      },
      {
        id: 'maxOutputTokens',
        label: 'Max output',
        kind: 'number',
        nullable: true,
        unit: 'tokens',
        path: top('maxOutputTokens'),
        placeholder: 'model default',
      },
      {
        id: 'ollamaMaxContext',
        providers: ['ollama'],
        label: 'Ollama context cap',
        kind: 'number',
        nullable: false,
        unit: 'tokens',
        path: top('ollamaMaxContext'),
        help: 'The largest window the app asks Ollama for (num_ctx), whatever the model supports: memory grows with it.',
      },
      {
        id: 'ollamaKeepAlive',
        providers: ['ollama'],
        label: 'Ollama keep-alive',
        kind: 'text',
        nullable: false,
        path: top('ollamaKeepAlive'),
        help: 'How long Ollama keeps the model loaded after a call: 30m, 2h, 0 (unload at once) or -1 (for ever).',
      },
      {
        id: 'thinking',
        providers: ['anthropic'],
        label: 'Extended thinking (Anthropic)',
        kind: 'toggled-number',
        valueLabel: 'Thinking budget',
        unit: 'tokens',
        onValue: 4096,
        path: top('thinkingBudgetTokens'),
        help: 'Claude 3.7 and later think before answering, within this many tokens: at least 1,024 and less than the model’s output limit (or Max output). Temperature is not sent while thinking is on.',
      },
      {
        id: 'reasoningEffort',
        providers: ['openai', 'openai-compatible'],
        label: 'Reasoning effort (OpenAI)',
        kind: 'select',
        path: top('reasoningEffort'),
        options: [
          ['', 'Model default (not sent)'],
          ['low', 'Low'],
          ['medium', 'Medium'],
          ['high', 'High'],
        ],
        help: 'For reasoning models (o-series, GPT-5) and servers that accept reasoning_effort; other models refuse it.',
      },
      {
        id: 'toolCalling',
        label: 'Tool calling',
        kind: 'select',
        path: top('toolCalling'),
        options: [
          ['auto', 'Auto (tools, fenced code as fallback)'],
          ['off', 'Off (fenced code blocks)'],
        ],
      },
      {
        id: 'maxFailedAttempts',
        label: 'Failed runs in a row before stopping',
        kind: 'number',
        nullable: false,
        path: top('maxFailedAttempts'),
      },
      {
        id: 'budgetUsd',
        label: 'Budget per conversation',
        kind: 'number',
        nullable: true,
        unit: 'USD',
        path: top('budgetUsd'),
        placeholder: 'no limit',
      },
      { id: 'subagentsAtOnce', label: 'Sub-agents running at once', kind: 'number', nullable: false, path: top('subagentsAtOnce') },
      { id: 'subagentModelCalls', label: 'Model calls per sub-agent', kind: 'number', nullable: false, path: top('subagentModelCalls') },
      { id: 'subagentResultChars', label: 'Sub-agent answer length', kind: 'number', nullable: false, path: top('subagentResultChars') },
      {
        id: 'customInstructions',
        label: 'Custom instructions',
        kind: 'textarea',
        path: top('customInstructions'),
        help: 'Added to the system prompt of every conversation.',
      },
      {
        id: 'memory',
        label: 'Memory (the model may save notes for later conversations)',
        kind: 'toggle',
        path: top('memory'),
      },
      {
        id: 'hooks',
        label: 'Hooks',
        kind: 'json',
        path: top('hooks'),
        placeholder: '{"beforeCell": [{"command": "/usr/bin/python3 /home/me/check.py", "matcher": "shell|bash", "timeoutSeconds": 10}]}',
        help: 'Your commands, run at points of a turn: conversationStart, beforeModelCall, beforeCell (exit 2 or {"decision":"deny"} refuses the cell), afterCell, needsPerson, turnEnd. Also read from hooks.json in the data folder. See docs/agent.md, Hooks.',
      },
    ],
  },
  {
    title: 'Running code',
    fields: [
      { id: 'autoRun', label: 'Auto-run (run code without asking)', kind: 'toggle', path: top('autoRun') },
      {
        id: 'timeout',
        label: 'Run timeout',
        kind: 'number',
        nullable: false,
        unit: 's',
        factor: 1000,
        path: exec('timeoutMs'),
        help: 'Paused while a program waits for you to type.',
      },
      {
        id: 'inputRequests',
        label: 'When code asks for input',
        kind: 'select',
        path: exec('inputRequests'),
        options: [
          ['ask', 'Ask me'],
          ['end', 'End the input (the model is told)'],
        ],
        help: 'input(), a password prompt, a [Y/n] question. Ending it at once suits runs you do not watch.',
      },
      {
        id: 'inputWaitMs',
        label: 'Input wait limit',
        kind: 'number',
        nullable: false,
        unit: 's',
        factor: 1000,
        path: exec('inputWaitMs'),
        help: 'How long one question waits for your answer before the program gets end-of-input.',
      },
      {
        id: 'sessionIdleMs',
        label: 'End idle sessions after',
        kind: 'number',
        nullable: false,
        unit: 'min',
        factor: 60_000,
        path: exec('sessionIdleMs'),
        help: 'A conversation’s Python, shells and other sessions end when unused this long, to free memory; its next run starts fresh and says so. 0 = never.',
      },
      {
        id: 'memoryMb',
        label: 'Memory limit',
        kind: 'number',
        nullable: true,
        unit: 'MB',
        path: exec('memoryMb'),
        placeholder: 'no limit',
      },
      {
        id: 'cpuSeconds',
        label: 'CPU time limit',
        kind: 'number',
        nullable: true,
        unit: 's',
        path: exec('cpuSeconds'),
        placeholder: 'no limit',
      },
      { id: 'maxProcesses', label: 'Process limit', kind: 'number', nullable: true, path: exec('maxProcesses'), placeholder: 'no limit' },
      {
        id: 'modelOutputChars',
        label: 'Output shown to the model',
        kind: 'number',
        nullable: false,
        unit: 'characters',
        path: exec('modelOutputChars'),
        help: 'Longer output is trimmed to its head and tail for the model; you always see all of it.',
      },
      {
        id: 'outputCapBytes',
        label: 'Output kept per run',
        kind: 'number',
        nullable: false,
        unit: 'KB',
        factor: 1024,
        path: exec('outputCapBytes'),
      },
      {
        id: 'autoInstall',
        label: 'Missing packages',
        kind: 'select',
        path: exec('autoInstall'),
        options: [
          ['ask', 'Ask before installing'],
          ['auto', 'Install well-known packages without asking'],
          ['off', 'Never install'],
        ],
      },
      {
        id: 'shell',
        label: 'Shell for shell cells',
        kind: 'select',
        path: exec('shell'),
        options: [
          ['auto', 'Your login shell (bash or zsh)'],
          ['bash', 'bash'],
          ['zsh', 'zsh'],
        ],
        help: 'Cells written as bash or zsh always run in that shell; bash and zsh keep separate state.',
      },
      {
        id: 'pythonPath',
        label: 'Python interpreter',
        kind: 'text',
        nullable: true,
        path: exec('pythonPath'),
        placeholder: 'python3 on PATH',
      },
      { id: 'env', label: 'Environment variables for code', kind: 'env', path: exec('env'), help: 'One NAME=value per line.' },
    ],
  },
  {
    title: 'Checkpoints',
    fields: [
      {
        id: 'checkpointMaxFileMb',
        label: 'Largest file recorded',
        kind: 'number',
        nullable: false,
        unit: 'MB',
        path: top('checkpointMaxFileMb'),
        help: 'Larger files are not checkpointed, and each cell lists them.',
      },
      {
        id: 'checkpointIgnoredMaxKb',
        label: 'Ignored files kept up to',
        kind: 'number',
        nullable: false,
        unit: 'KB',
        path: top('checkpointIgnoredMaxKb'),
        help: 'Files your .gitignore ignores are kept when this small (.env always), so a rewind puts them back; larger ones and ignored folders are listed on the cell when it changes them.',
      },
      {
        id: 'checkpointBudgetMb',
        label: 'Space per conversation',
        kind: 'number',
        nullable: false,
        unit: 'MB',
        path: top('checkpointBudgetMb'),
        help: 'Past this, the conversation’s oldest checkpoints are dropped first.',
      },
      {
        id: 'checkpointKeepDays',
        label: 'Keep checkpoints for',
        kind: 'number',
        nullable: false,
        unit: 'days',
        path: top('checkpointKeepDays'),
      },
      {
        id: 'checkpointStoreMaxMb',
        label: 'Whole store at most',
        kind: 'number',
        nullable: false,
        unit: 'MB',
        path: top('checkpointStoreMaxMb'),
        help: 'Past this, the oldest checkpoints of every conversation go first.',
      },
    ],
  },
  {
    title: 'Sandbox',
    fields: [
      { id: 'sandboxEnabled', label: 'Run code in a sandbox', kind: 'toggle', path: sandbox('enabled') },
      {
        id: 'allowNetwork',
        label: 'Allow all network in the sandbox',
        kind: 'toggle',
        path: sandbox('allowNetwork'),
        help: 'Off: code reaches the package registries and the hosts below through the app, and any other host only if you allow it when asked.',
      },
      {
        id: 'allowedHosts',
        label: 'Hosts code may always reach',
        kind: 'lines',
        path: sandbox('allowedHosts'),
        placeholder: 'example.com\n*.example.com',
        help: 'One per line: a name, *.name for any name under it, or an address. "Always allow" adds here.',
      },
      {
        id: 'extraPaths',
        label: 'Extra folders the code can see',
        kind: 'lines',
        path: sandbox('extraPaths'),
        placeholder: '~/datasets\n/srv/data:rw',
        help: 'One per line, read-only unless it ends in :rw.',
      },
    ],
  },
  {
    title: 'Workspace and appearance',
    fields: [
      {
        id: 'workspaceRoot',
        label: 'Workspace folder',
        kind: 'text',
        nullable: true,
        path: top('workspaceRoot'),
        placeholder: 'a new folder per conversation',
        help: 'Where new conversations run their code.',
      },
      {
        id: 'notebookMaxBytes',
        label: 'Largest notebook to import',
        kind: 'number',
        nullable: false,
        unit: 'MB',
        factor: 1024 * 1024,
        path: top('notebookMaxBytes'),
      },
      {
        id: 'theme',
        label: 'Theme',
        kind: 'select',
        path: top('theme'),
        options: [
          ['system', 'Follow the system'],
          ['light', 'Light'],
          ['dark', 'Dark'],
        ],
      },
    ],
  },
];

/** Whether a field applies to the provider now chosen (fields for one provider only are hidden for others). */
export function appliesTo(field: FieldSpec, provider: ProviderKind): boolean {
  return !field.providers || field.providers.includes(provider);
}
