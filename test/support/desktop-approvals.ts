import { existsSync } from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import type { McpApprovalDecision, McpApprovalQuestion } from '@contract';
import { ENDPOINT_FILE } from '../../src-main/core/mcp-approval/endpoint-file';
import { startAppUnderTest, type AppUnderTest } from './app-under-test';

// The desktop app in browser mode with its `oi mcp` approval endpoint open, on a data folder an
// `oi mcp` process shares (OI_DATA_DIR): the person's side of an approval, answered through the
// app's own request handlers, as the page's buttons do.

export async function startDesktopApp(dataDir: string): Promise<AppUnderTest> {
  const aut = await startAppUnderTest({}, { dataDir, settingsOnDisk: true, mcpApprovalEndpoint: true, localServers: [] });
  if (!(await aut.app.mcpApprovalEndpoint)) throw new Error('the approval endpoint did not open');
  if (!existsSync(path.join(dataDir, ENDPOINT_FILE))) throw new Error('the endpoint file was not written');
  return aut;
}

/** The one question waiting in the app (polled: oi mcp asks when the client's call arrives). */
export async function waitForQuestion(aut: AppUnderTest): Promise<McpApprovalQuestion> {
  return vi.waitFor(
    () => {
      const [question, ...more] = aut.app.context.mcpApprovals.pending();
      if (!question || more.length > 0) throw new Error(`waiting for one question, have ${more.length + (question ? 1 : 0)}`);
      return question;
    },
    { timeout: 60_000, interval: 50 },
  );
}

export async function answer(aut: AppUnderTest, id: string, decision: McpApprovalDecision): Promise<boolean> {
  return (await aut.app.handlers['mcp-approval.answer']({ id, decision }, { transport: 'websocket' })).answered;
}
