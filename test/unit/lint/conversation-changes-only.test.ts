import { describe, expect, it } from 'vitest';
import { eslintRefusals } from './support/eslint-refusals';

// eslint.config.js's rule that a conversation changes only through agent/conversation-changes.ts, whose
// functions each send the event that tells an open window (a change made elsewhere is missed until the
// next reload), run by ESLint itself on code written into real files.

const refusals = eslintRefusals((ruleId) => ruleId === 'no-restricted-syntax');

const SHAPES = 'declare const conv: any; declare const live: { conv: any }; declare const item: object;\n';
// Each way of changing a conversation that an open window mirrors, as the five old changers wrote them.
const DIRECT = {
  'an item pushed': 'live.conv.items.push(item);',
  'the items replaced': 'conv.items = [];',
  'an item spliced out': 'conv.items.splice(0, 1);',
  'the title set': "conv.title = 'x';",
  'the model choice set': 'live.conv.modelChoice = item;',
  'the folder set': "conv.workspace = '/tmp';",
  'the time set': "live.conv.updatedAt = '';",
  'the task list set': 'live.conv.tasks = [];',
  'auto-run set': 'conv.autoRun = true;',
};

describe('a conversation changes only through agent/conversation-changes.ts', () => {
  it.each(Object.entries(DIRECT))('refuses %s outside it', async (_, line) => {
    for (const file of [
      'src-main/core/agent/subagents/subagent-runner.ts',
      'src-main/core/hosted-agents/hosted-record.ts',
      'src-main/core/mcp-server/serve-session.ts',
      'src-main/core/notebook/live-reruns.ts',
      'src-main/core/handlers/conversation-workspace-handlers.ts',
      'src-main/core/bridge/dispatch.ts',
    ])
      expect(await refusals(file, SHAPES + line), file).toContain('no-restricted-syntax');
  });

  it('(twin) lets conversation-changes.ts change it, and reads and other objects pass everywhere', async () => {
    for (const line of Object.values(DIRECT))
      expect(await refusals('src-main/core/agent/conversation-changes.ts', SHAPES + line)).toEqual([]);
    const reads = 'const n = live.conv.items.findIndex(() => true) + conv.items.at(-1); const patch: any = {}; patch.autoRun = n;\n';
    expect(await refusals('src-main/core/notebook/live-reruns.ts', SHAPES + reads)).toEqual([]);
  });

  it('still refuses a handler called by name in conversation-changes.ts (one rule entry per file set)', async () => {
    const direct = "declare const app: { handlers: Record<string, () => void> };\napp.handlers['conversation.list']();\n";
    expect(await refusals('src-main/core/agent/conversation-changes.ts', direct)).toContain('no-restricted-syntax');
  });
});
