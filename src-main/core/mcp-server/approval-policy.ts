import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpClientPolicy } from '@contract';
import type { ApprovalAsk } from '../mcp-approval/approval-wire';
import type { DesktopAnswer } from '../mcp-approval/ask-desktop';

// Who may run code and write files through `oi mcp`. The client is another agent: its model decides
// what to call. So, for each execute and each write (in this order):
// - a client set to "refuse" in the app's settings (mcpClients, by the name it gives) is refused;
// - --auto-run, or the client set to "allow", runs it: the person who started the server, or the one
//   at the desktop app, decided so beforehand;
// - otherwise the desktop app is asked, when it runs (docs/mcp.md#approval-in-the-desktop-app): the
//   person there allows it once, always for this client, or declines;
// - no app, no answer in time, or an endpoint that cannot prove it is the app: refused, saying how to
//   allow it. Reading, listing and exporting are always allowed. The app's own auto-run setting does
//   not count: it is about the app's model, not about other programs' agents.

export interface ApprovalPolicy {
  /** --auto-run: run code and write files without asking. */
  autoRun: boolean;
  /** The saved choice for a client name (settings' mcpClients), read at each call; absent: ask. */
  clientPolicy?: (client: string) => McpClientPolicy;
  /** Asks the desktop app; absent: there is nobody to ask. */
  ask?: (ask: ApprovalAsk, signal: AbortSignal) => Promise<DesktopAnswer>;
}

export type GateRequest = { kind: 'execute'; language: string; code: string } | { kind: 'write_file'; path: string; content: string };

/** null: refused (the result says why); otherwise who approved, as the recorded cell says. */
export type GateOutcome = { refusal: CallToolResult; approval: null } | { refusal: null; approval: 'auto' | 'user' };

export interface GateOptions {
  /** A beforeCell hook asked for the person: the desktop app is asked even with --auto-run or "allow". */
  mustAsk?: boolean;
  /** The desktop app is about to be asked (the needsPerson hooks). */
  onAsking?: () => void;
}

export interface ApprovalGate {
  check(request: GateRequest, signal: AbortSignal, options?: GateOptions): Promise<GateOutcome>;
}

/** Characters of a write's content the person sees before deciding. */
const CONTENT_PREVIEW_CHARS = 20_000;

export function approvalGate(
  policy: ApprovalPolicy,
  client: () => { name: string; version?: string } | undefined,
  workspace: string,
): ApprovalGate {
  return {
    async check(request, signal, options = {}) {
      const what = request.kind === 'execute' ? 'run code' : 'write files';
      const info = client();
      const name = info?.name ?? 'client';
      const saved = policy.clientPolicy?.(name) ?? 'ask';
      if (saved === 'refuse')
        return refuse(
          `oi mcp does not ${what} for the client "${name}": the desktop app's settings refuse it ` +
            '(Settings → Clients of oi mcp, or "mcpClients" in its settings.json).',
        );
      if ((policy.autoRun || saved === 'allow') && !options.mustAsk) return { refusal: null, approval: 'auto' };
      if (!policy.ask) return refuse(noOneToAsk(what));
      options.onAsking?.();
      const preview = request.kind === 'write_file' ? request.content.slice(0, CONTENT_PREVIEW_CHARS) : null;
      const answer = await policy.ask(
        {
          client: name.slice(0, 256),
          clientVersion: info?.version?.slice(0, 256) ?? null,
          kind: request.kind,
          language: request.kind === 'execute' ? request.language : null,
          code: request.kind === 'execute' ? request.code : null,
          path: request.kind === 'write_file' ? request.path : null,
          content: preview,
          contentOmitted: request.kind === 'write_file' ? request.content.length - (preview?.length ?? 0) : 0,
          workspace,
        },
        signal,
      );
      if (answer.allowed) return { refusal: null, approval: answer.how === 'setting' ? 'auto' : 'user' };
      if (answer.reason === 'denied') return refuse(`oi mcp did not ${what}: ${answer.why}.`);
      return refuse(`oi mcp did not ${what}: it asked the desktop app, but ${answer.why}. ${HOW_TO_ALLOW}`);
    },
  };
}

const HOW_TO_ALLOW =
  'Answer in the desktop app (open it to be asked there), or the person who configured this server can allow it by adding --auto-run to ' +
  'its arguments (for example `oi mcp --workspace <dir> --auto-run`), preferably with --sandbox. ' +
  'Reading and listing files, listing sessions and exporting the notebook work without it.';

const noOneToAsk = (what: string) => `oi mcp does not ${what} without permission, and nobody is here to ask. ${HOW_TO_ALLOW}`;

const refuse = (message: string): GateOutcome => ({
  refusal: { isError: true, content: [{ type: 'text', text: message }] },
  approval: null,
});
