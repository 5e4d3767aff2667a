import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

/** Questions from clients of `oi mcp` waiting for the person, and the person's answers (docs/mcp.md). */
export const mcpApprovalHandlers = ({
  mcpApprovals,
}: Pick<AppContext, 'mcpApprovals'>): Pick<HandlerTable, 'mcp-approval.pending' | 'mcp-approval.answer'> => ({
  'mcp-approval.pending': async () => mcpApprovals.pending(),
  'mcp-approval.answer': async ({ id, decision }) => ({ answered: mcpApprovals.answer(id, decision) }),
});
