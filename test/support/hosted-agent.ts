import fs from 'node:fs';
import path from 'node:path';
import { defaultSettings, type Conversation, type SettingsPatch } from '@contract';
import type { App } from '../../src-main/core/app';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import { REPO_ROOT } from './app-under-test';

// A conversation of the real app (createApp) driven by the scripted ACP agent of
// test/fixtures/acp/scripted-agent.mjs, a real process spoken to over a real pipe by our host
// (core/hosted-agents). The person's answers to approval cards go through the contract, as the page's do.

export const SCRIPTED_AGENT = path.join(REPO_ROOT, 'test/fixtures/acp/scripted-agent.mjs');

/** Settings with the scripted agent set up under the name "scripted". */
export function withScriptedAgent(patch: SettingsPatch = {}, env: Record<string, string> = {}): SettingsPatch {
  // The agent's script and the SDK it imports are in the repository, which the sandbox hides when the
  // repository is under /tmp or the home (a clone there, as CI's): shown read-only, as a person adds an
  // agent's own folder (docs/acp.md#hosting).
  const sandbox = patch.sandbox ?? { ...defaultSettings.sandbox, extraPaths: [REPO_ROOT] };
  return { ...patch, sandbox, agents: { scripted: { command: process.execPath, args: [SCRIPTED_AGENT], env, key: null } } };
}

export type CardAnswer = 'approve' | 'always' | 'skip';

export interface HostedConversation {
  id: string;
  workspace: string;
  /** How the next approval cards are answered, in order (the last one repeats). */
  answers: CardAnswer[];
  /** Cells an approval card was shown for. */
  asked: string[];
  /** Sends one message and waits for the agent's turn to end; the conversation as saved. */
  send(text: string): Promise<Conversation>;
  call(name: string, input: unknown): Promise<unknown>;
}

/**
 * `existing`: a conversation already set up (the app was started again over the same data folder);
 * `agent`: the name of the agent in Settings → Agents.
 */
export async function hostedConversation(app: App, workspace: string, existing?: string, agent = 'scripted'): Promise<HostedConversation> {
  const dispatch = createDispatcher(app.handlers);
  const call = async (name: string, input: unknown): Promise<unknown> => {
    const reply = await dispatch(name, input, { transport: 'websocket' });
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.result;
  };
  fs.mkdirSync(workspace, { recursive: true });
  const conv = existing
    ? ((await call('conversation.get', { conversationId: existing })) as Conversation)
    : ((await call('conversation.create', { workspace })) as Conversation);
  if (!existing) await call('conversation.set-agent', { conversationId: conv.id, agent });
  const answers: CardAnswer[] = [];
  const asked: string[] = [];
  app.events.subscribe((event) => {
    if (event.name !== 'cell.awaiting-approval' || event.payload.conversationId !== conv.id) return;
    const cellId = event.payload.cell.id;
    asked.push(cellId);
    const answer = (answers.length > 1 ? answers.shift() : answers[0]) ?? 'skip';
    const request =
      answer === 'skip'
        ? call('cell.skip', { conversationId: conv.id, cellId })
        : call('cell.approve', { conversationId: conv.id, cellId, always: answer === 'always' });
    void request.catch(() => undefined);
  });
  return {
    id: conv.id,
    workspace,
    answers,
    asked,
    call,
    async send(text) {
      await call('chat.send', { conversationId: conv.id, text });
      await app.context.agent.idle(conv.id);
      return (await call('conversation.get', { conversationId: conv.id })) as Conversation;
    },
  };
}

/** The text of the agent's answers in a conversation. */
export function agentText(conv: Conversation): string {
  return conv.items.map((i) => (i.kind === 'assistant' ? i.text : '')).join('');
}
