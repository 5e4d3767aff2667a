import type { AssistantItem, Attachment, CellItem, CellOutput, Conversation, ConversationItem, NoticeItem, UserItem } from '@contract';

// Small builders for conversations as the app holds them. Ids and times are deterministic so that
// tests can compare whole structures.

let counter = 0;
const nextId = (prefix: string): string => `${prefix}-${++counter}`;
const at = (n: number): string => new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + n * 1000).toISOString();

export function conversation(items: ConversationItem[], overrides: Partial<Conversation> = {}): Conversation {
  return {
    version: 1,
    id: 'conv-1',
    title: 'Sales analysis',
    createdAt: at(0),
    updatedAt: at(100),
    workspace: '/tmp/oi-workspace',
    items,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    autoRun: false,
    ...overrides,
  };
}

export function user(text: string, attachments: Attachment[] = []): UserItem {
  return { kind: 'user', id: nextId('u'), text, attachments, createdAt: at(counter) };
}

export function assistant(text: string, step = 'step-1'): AssistantItem {
  return { kind: 'assistant', id: nextId('a'), step, text, thinking: [], interrupted: false, createdAt: at(counter) };
}

export function notice(text: string, level: NoticeItem['level'] = 'warning'): NoticeItem {
  return { kind: 'notice', id: nextId('n'), level, text, createdAt: at(counter) };
}

let executionCount = 0;

export function cell(language: string, code: string, outputs: CellOutput[] = [], overrides: Partial<CellItem> = {}): CellItem {
  const ran = overrides.status === undefined || !['skipped', 'awaiting-approval', 'streaming'].includes(overrides.status);
  return {
    kind: 'cell',
    id: nextId('c'),
    step: 'step-1',
    toolCallId: `call_${counter}`,
    language,
    code,
    status: 'done',
    approval: 'user',
    outputs,
    exitCode: ran ? 0 : null,
    durationMs: ran ? 12.5 : null,
    executionCount: ran ? ++executionCount : null,
    startedAt: ran ? at(counter) : null,
    limits: { timeoutMs: 120_000, memoryMb: 4096, cpuSeconds: null, maxProcesses: 512, sandbox: null },
    resultForModel: null,
    ...overrides,
  };
}

export const stdout = (text: string): CellOutput => ({ output_type: 'stream', name: 'stdout', text });
export const stderr = (text: string): CellOutput => ({ output_type: 'stream', name: 'stderr', text });

export function display(data: Record<string, unknown>, metadata: Record<string, unknown> = {}): CellOutput {
  return { output_type: 'display_data', data, metadata };
}

export function result(count: number, data: Record<string, unknown>): CellOutput {
  return { output_type: 'execute_result', execution_count: count, data, metadata: {} };
}

export function error(ename: string, evalue: string, traceback: string[]): CellOutput {
  return { output_type: 'error', ename, evalue, traceback };
}

/** A real 1×1 PNG, base64, as Jupyter stores image/png. */
export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
