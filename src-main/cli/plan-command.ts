import { errorMessage } from '@contract';
import type { CliSession } from './cli-session';
import type { Style } from './terminal-style';

// `/plan` at oi's prompt (docs/cli.md#plan-mode): turns plan mode on or off for this conversation
// (`/plan on`, `/plan off`; bare, it switches). The line the change prints comes from its event
// (plan-lines.ts), as when an approved plan ends plan mode.

export async function togglePlanMode(session: CliSession, line: string, print: (line: string) => void, style: Style): Promise<void> {
  const arg = line
    .replace(/^\/plan/, '')
    .trim()
    .toLowerCase();
  if (arg !== '' && arg !== 'on' && arg !== 'off') return print(style.yellow('/plan takes on, off, or nothing (to switch)'));
  try {
    const planMode = arg === '' ? !(await session.conversation()).planMode : arg === 'on';
    await session.call('conversation.set-plan-mode', { conversationId: session.conversationId, planMode });
  } catch (err) {
    print(style.red(`/plan failed: ${errorMessage(err)}`));
  }
}
