import { openTasks, type Conversation } from '@contract';
import type { ToolSpec } from '../../llm/provider';
import { proposePlanTool, updateTasksTool } from '../../llm/plan-tools';
import { tasksForModel } from './task-list';

// What a model call carries of plan mode and the task list: the tools, and a prompt section saying
// what plan mode allows and where the list stands (history fitting may have left out the calls that
// built it). Both need tool calling: a model writing fenced blocks gets neither, and in plan mode its
// code still runs read-only (plan-sandbox.ts).

export interface PlanSection {
  prompt: string;
  tools: ToolSpec[];
}

const PLAN_MODE = [
  '# Plan mode',
  'The person turned plan mode on: agree on a plan before changing anything. Your code runs in a sandbox with the workspace read-only and the network off, so read files and run code that only looks; writes are refused.',
  'When you know enough, call propose_plan with a short checklist of steps. The person approves it (maybe edited), which ends plan mode and lets you carry it out, or rejects it with a reason. Do not try to make the changes yourself before that.',
].join('\n');

export function planSection(conv: Conversation, toolCalling: boolean): PlanSection {
  if (!toolCalling) return { prompt: '', tools: [] };
  const tasks = conv.tasks ?? [];
  const lines: string[] = [];
  if (conv.planMode) lines.push(PLAN_MODE);
  if (openTasks(tasks).length > 0) lines.push(`${lines.length > 0 ? '\n' : ''}# Task list\n${tasksForModel(tasks)}`);
  return { prompt: lines.join('\n'), tools: conv.planMode ? [proposePlanTool, updateTasksTool] : [updateTasksTool] };
}
