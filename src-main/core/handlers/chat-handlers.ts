import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

type ChatNames = 'chat.send' | 'chat.stop' | 'chat.edit-last' | 'chat.regenerate' | 'cell.approve' | 'cell.skip' | 'cell.interrupt' | 'install.answer';

export const chatHandlers = ({ agent }: AppContext): Pick<HandlerTable, ChatNames> => ({
  'chat.send': async ({ conversationId, text, attachments }) => {
    const item = await agent.send(conversationId, text, attachments ?? []);
    return { userItemId: item.id };
  },
  'chat.stop': async ({ conversationId }) => {
    agent.stop(conversationId);
    return { ok: true };
  },
  'chat.edit-last': async ({ conversationId, text }) => {
    const item = await agent.editAndResend(conversationId, text);
    return { userItemId: item.id };
  },
  'chat.regenerate': async ({ conversationId }) => {
    await agent.regenerate(conversationId);
    return { ok: true };
  },
  'cell.approve': async ({ conversationId, cellId, code, always }) => {
    agent.approve(conversationId, cellId, code ?? null, always ?? false);
    return { ok: true };
  },
  'cell.skip': async ({ conversationId, cellId }) => {
    agent.skip(conversationId, cellId);
    return { ok: true };
  },
  'cell.interrupt': async ({ conversationId, cellId }) => {
    agent.interruptCell(conversationId, cellId);
    return { ok: true };
  },
  'install.answer': async ({ conversationId, questionId, install }) => {
    agent.answerInstall(conversationId, questionId, install);
    return { ok: true };
  },
});
