import { modelInfo } from '../llm/model-catalog';
import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';
import { setAutoRun, setComputerUse } from '../agent/conversation-changes';
import { outputRows } from '../bridge/page-cells';

type ChatNames =
  | 'chat.send'
  | 'chat.stop'
  | 'chat.edit-last'
  | 'chat.regenerate'
  | 'cell.approve'
  | 'cell.skip'
  | 'cell.interrupt'
  | 'cell.input'
  | 'cell.terminal-input'
  | 'cell.output-rows'
  | 'install.answer'
  | 'conversation.set-auto-run'
  | 'conversation.set-computer-use'
  | 'computer.support';

export const chatHandlers = ({ agent, reruns, events, computer, settings }: AppContext): Pick<HandlerTable, ChatNames> => {
  // The agent and a notebook re-run would run code in the same sessions at once.
  const refuseDuringRerun = (conversationId: string) => {
    if (reruns.isRunning(conversationId)) throw new Error("the notebook's cells are being re-run: wait for it to finish, or stop it first");
  };
  return {
    'chat.send': async ({ conversationId, text, attachments }) => {
      refuseDuringRerun(conversationId);
      const item = await agent.send(conversationId, text, attachments ?? []);
      return { userItemId: item.id };
    },
    'chat.stop': async ({ conversationId }) => {
      agent.stop(conversationId);
      return { ok: true };
    },
    'chat.edit-last': async ({ conversationId, text }) => {
      refuseDuringRerun(conversationId);
      const item = await agent.editAndResend(conversationId, text);
      return { userItemId: item.id };
    },
    'chat.regenerate': async ({ conversationId }) => {
      refuseDuringRerun(conversationId);
      await agent.regenerate(conversationId);
      return { ok: true };
    },
    'cell.approve': async ({ conversationId, cellId, code, always }) => {
      agent.approve(conversationId, cellId, code ?? null, always ?? false);
      return { ok: true };
    },
    'cell.skip': async ({ conversationId, cellId, unasked }) => {
      agent.skip(conversationId, cellId, unasked ?? false);
      return { ok: true };
    },
    'cell.interrupt': async ({ conversationId, cellId }) => {
      agent.interruptCell(conversationId, cellId);
      return { ok: true };
    },
    'conversation.set-auto-run': async ({ conversationId, autoRun }) => {
      await agent.update(conversationId, (conv) => setAutoRun(conv, events, autoRun));
      return { ok: true };
    },
    'conversation.set-computer-use': async ({ conversationId, on }) => {
      if (on && !computer.support.available) throw new Error(computer.support.reason);
      await agent.update(conversationId, (conv) => setComputerUse(conv, events, on));
      return { ok: true };
    },
    'computer.support': async () => {
      const { provider, model } = settings.get();
      return {
        available: computer.support.available,
        reason: computer.support.available ? null : computer.support.reason,
        model,
        modelSees: modelInfo(provider, model).vision,
      };
    },
    'cell.input': async ({ conversationId, questionId, text }) => {
      agent.answerInput(conversationId, questionId, text !== undefined ? { text } : { eof: true });
      return { ok: true };
    },
    'cell.terminal-input': async ({ conversationId, cellId, data }) => {
      agent.typeIntoCell(conversationId, cellId, data);
      return { ok: true };
    },
    // The rows of a finished cell's text the page was not sent (bridge/page-cells.ts), from the conversation as it is now.
    'cell.output-rows': async ({ conversationId, cellId, cut, from, count }) =>
      outputRows(await agent.snapshot(conversationId), cellId, cut, from, count),
    'install.answer': async ({ conversationId, questionId, install }) => {
      agent.answerInstall(conversationId, questionId, install);
      return { ok: true };
    },
  };
};
