import { type AnyEvent, type Usage } from '@contract';
import type { SubagentRef } from './cli-session';
import type { Style } from './terminal-style';
import { TextPrinter } from './text-printer';

// Sub-agents in the terminal (docs/agent.md#sub-agents, docs/cli.md): each one's output nested under
// its parent's, every line indented and marked with its name, since several write at once. A line is
// written only once it is whole, so two sub-agents' streaming text never mixes within a line. Before
// they start, the estimate; as each ends, how it ended and what it spent.

/** Events of a sub-agent that concern the person beyond its output: questions, and their end. */
export const SUBAGENT_QUESTION_EVENTS = new Set([
  'cell.awaiting-approval',
  'cell.done',
  'install.awaiting-approval',
  'install.answered',
  'network.awaiting-approval',
  'network.answered',
]);

export class SubagentOutput {
  private readonly printers = new Map<string, { printer: TextPrinter; flush(): void }>();
  private readonly statuses = new Map<string, string>();

  constructor(
    private readonly opts: {
      /** Writes whole lines where the parent's output goes, after ending the parent's line. */
      write: (text: string) => void;
      style: Style;
      columns?: () => number;
      outputDir?: string | null;
      workspace?: () => string | null;
    },
  ) {}

  /** The parent's events about its sub-agents: the estimate before they start, each start and end. */
  parentEvent(event: AnyEvent): void {
    const { style } = this.opts;
    if (event.name === 'subagent.estimate') {
      const each = event.payload.subagents.map((s) => `${s.name} (${s.model}) ≤ ${usd(s.estimateUsd)}`).join(', ');
      const left = event.payload.budgetLeftUsd === null ? '' : `; budget left ${usd(event.payload.budgetLeftUsd)}`;
      this.opts.write(`${style.dim(`⇉ sub-agents, estimated up to ${usd(event.payload.totalUsd)} in total: ${each}${left}`)}\n`);
      return;
    }
    if (event.name !== 'subagent.updated') return;
    const s = event.payload.subagent;
    if (this.statuses.get(event.payload.cellId) === s.status) return;
    this.statuses.set(event.payload.cellId, s.status);
    if (s.status === 'running')
      this.opts.write(`${style.bold(`▸ sub-agent ${s.name}`)}${style.dim(` started (${s.provider} / ${s.model})`)}\n`);
    else if (s.status !== 'waiting') {
      this.printers.get(s.conversationId)?.flush();
      const colour = s.status === 'done' ? style.dim : s.status === 'stopped' ? style.yellow : style.red;
      const how = s.status === 'done' ? 'done' : s.status === 'budget' ? 'stopped: budget or limit reached' : s.status;
      this.opts.write(`${style.bold(`◂ sub-agent ${s.name}`)}${colour(` ${how} · ${spent(s.usage)}`)}\n`);
    }
  }

  /** The person answered a sub-agent's program on the prompt line: its echo of the answer is not shown again. */
  expectEcho(q: { conversationId: string; cellId: string }, echo: string): void {
    this.printers.get(q.conversationId)?.printer.inputEcho.expect(q.cellId, echo);
  }

  /** One of a sub-agent's own events, printed nested under it. */
  childEvent(event: AnyEvent, sub: SubagentRef): void {
    let entry = this.printers.get(sub.conversationId);
    if (!entry) {
      const prefix = this.opts.style.dim(`  │ ${sub.name}  `);
      let pending = '';
      const flush = () => {
        if (pending) this.opts.write(`${prefix}${pending}\n`);
        pending = '';
      };
      const sink = {
        write: (text: string) => {
          const lines = (pending + text).split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) this.opts.write(`${prefix}${line}\n`);
        },
        ...(this.opts.columns ? { columns: () => Math.max(20, (this.opts.columns?.() ?? 80) - sub.name.length - 6) } : {}),
      };
      const printer = new TextPrinter(sink, this.opts.style, {
        outputDir: this.opts.outputDir ?? null,
        tracebackHint: false,
        ...(this.opts.workspace ? { workspace: this.opts.workspace } : {}),
      });
      entry = { printer, flush };
      this.printers.set(sub.conversationId, entry);
    }
    entry.printer.handle(event);
    if (event.name === 'turn.end') {
      entry.printer.newline();
      entry.flush();
    }
  }
}

function usd(value: number | null): string {
  if (value === null) return 'price unknown';
  return value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

function spent(usage: Usage): string {
  return `${(usage.inputTokens + usage.outputTokens).toLocaleString('en-US')} tokens, ${usd(usage.costUsd)}`;
}
