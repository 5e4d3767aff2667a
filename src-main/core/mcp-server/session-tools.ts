import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ApprovalGate } from './approval-policy';
import { refusedByHook } from '../agent/turn-hooks';
import { runContent } from './run-content';
import type { ServeSession } from './serve-session';
import { guarded, json, text } from './tool-result';

// execute and the session tools. Each client has its own sessions (one per language, kept between
// calls like notebook cells); the limits and sandbox are the app's (settings, or --sandbox).

const Language = z.string().min(1).max(64).describe('python, javascript, shell (bash), zsh, ruby, r, java, html, powershell, applescript');

export function registerSessionTools(server: McpServer, session: ServeSession, gate: ApprovalGate): void {
  server.registerTool(
    'execute',
    {
      title: 'Run code',
      description:
        'Runs code in a persistent session of the language (variables, imports and the working directory stay between calls, ' +
        'as in a notebook). Returns the output as text (long output as head + tail) and plots or images as image content. ' +
        'A failure (exception, non-zero exit, time limit) is an error result with the traceback.',
      inputSchema: { language: Language, code: z.string().max(1_000_000) },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    ({ language, code }, extra) =>
      guarded(async () => {
        const cell = session.draft(language, code);
        const hook = await session.beforeRun(cell);
        if (hook.kind === 'deny') return { isError: true, content: [{ type: 'text' as const, text: refusedByHook(hook.reason) }] };
        const { refusal, approval } = await gate.check({ kind: 'execute', language, code }, extra.signal, {
          mustAsk: hook.kind === 'ask',
          onAsking: () => session.askingPerson(cell),
        });
        return refusal ?? runContent(await session.execute(language, code, extra.signal, approval, cell));
      }),
  );

  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description: "This client's language sessions (runs, whether one is running, last status) and the languages this machine can run.",
      annotations: { readOnlyHint: true },
    },
    () => guarded(async () => json(await session.sessions())),
  );

  server.registerTool(
    'interrupt',
    {
      title: 'Interrupt',
      description: 'Interrupts the code running in one language session (Ctrl-C), or in all of them when no language is given.',
      inputSchema: { language: Language.optional() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    ({ language }) =>
      guarded(async () => {
        const stopped = session.interrupt(language);
        return text(stopped.length > 0 ? `Interrupted: ${stopped.join(', ')}.` : 'Nothing was running.');
      }),
  );

  server.registerTool(
    'restart_session',
    {
      title: 'Restart a session',
      description: "Ends a language's session: its variables and imports are gone, and the next execute starts a new one.",
      inputSchema: { language: Language },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    ({ language }) =>
      guarded(async () => {
        await session.restart(language);
        return text(`The ${language} session was restarted.`);
      }),
  );
}
