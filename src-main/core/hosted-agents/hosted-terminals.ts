import { RequestError, type CreateTerminalRequest, type TerminalExitStatus, type TerminalOutputResponse } from '@agentclientprotocol/sdk';
import type { CellItem, Settings } from '@contract';
import { linkedAbort } from '../agent/linked-abort';
import type { LiveConversation } from '../agent/live-conversation';
import { executeCell, finishCell, type CellRunDeps } from '../agent/turn-cell';
import { shellQuote } from '../notebook/live-session-export';
import { workspacePath } from './hosted-files';
import { addAgentCell, type ChangeGate } from './hosted-record';

// A hosted agent's terminal/* (docs/acp.md#hosting): each command is a shell cell of the
// conversation, run by our engine in the conversation's session — so inside our sandbox, with our
// limits, output cap and checkpoints — after our approval. The agent reads its output back through
// terminal/output, cut from the start to the byte limit it asked for, as ACP says.

/** Bytes of output kept for the agent when it names no limit. */
const DEFAULT_OUTPUT_BYTES = 1024 * 1024;

interface HostedTerminal {
  cell: CellItem;
  output: string;
  limit: number;
  truncated: boolean;
  stop: AbortController;
  done: Promise<void>;
}

export class HostedTerminals {
  private readonly terminals = new Map<string, HostedTerminal>();
  private next = 1;

  constructor(private readonly deps: CellRunDeps & { settings: () => Settings }) {}

  async create(
    live: LiveConversation,
    params: CreateTerminalRequest,
    turn: { step: string; agent: string; signal: AbortSignal; gate: ChangeGate },
  ): Promise<{ terminalId: string }> {
    const line = commandLine(live.conv.workspace, params);
    const cell = addAgentCell(live, this.deps.events, turn.step, {
      agent: turn.agent,
      tool: 'terminal',
      code: line,
      toolCallId: null,
      status: 'streaming',
    });
    // A shell cell: the language the engine runs it in and the one notebook export writes.
    cell.language = 'shell';
    delete cell.mcp;
    const id = `term-${this.next++}`;
    const { controller, release } = linkedAbort(turn.signal);
    const terminal: HostedTerminal = {
      cell,
      output: '',
      limit: params.outputByteLimit ?? DEFAULT_OUTPUT_BYTES,
      truncated: false,
      stop: controller,
      done: Promise.resolve(),
    };
    const verdict = await turn.gate(cell);
    if (verdict !== 'run') {
      finishCell(live, this.deps.events, cell, 'skipped', verdict.refused);
      throw RequestError.invalidRequest({ command: params.command }, `not run: ${verdict.refused}`);
    }
    const unsubscribe = this.deps.events.subscribe((event) => {
      if (event.name === 'cell.terminal' && event.payload.cellId === cell.id) this.append(terminal, event.payload.data);
    });
    terminal.done = executeCell(live, this.deps, this.deps.settings(), cell, controller.signal)
      .then(() => undefined)
      .finally(() => {
        unsubscribe();
        release();
      });
    this.terminals.set(id, terminal);
    return { terminalId: id };
  }

  output(terminalId: string): TerminalOutputResponse {
    const t = this.get(terminalId);
    return { output: t.output, truncated: t.truncated, exitStatus: exitOf(t.cell) };
  }

  async waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    const t = this.get(terminalId);
    await t.done;
    return exitOf(t.cell) ?? { exitCode: null, signal: null };
  }

  kill(terminalId: string): void {
    this.get(terminalId).stop.abort();
  }

  release(terminalId: string): void {
    const t = this.terminals.get(terminalId);
    if (!t) return;
    t.stop.abort();
    this.terminals.delete(terminalId);
  }

  releaseAll(): void {
    for (const id of [...this.terminals.keys()]) this.release(id);
  }

  private get(terminalId: string): HostedTerminal {
    const t = this.terminals.get(terminalId);
    if (!t) throw RequestError.resourceNotFound(terminalId);
    return t;
  }

  /** Keeps the last `limit` bytes, cut at a character boundary. */
  private append(t: HostedTerminal, data: string): void {
    t.output += data;
    if (Buffer.byteLength(t.output) <= t.limit) return;
    const bytes = Buffer.from(t.output);
    let from = bytes.length - t.limit;
    while (from < bytes.length && (bytes[from]! & 0xc0) === 0x80) from++;
    t.output = bytes.subarray(from).toString('utf8');
    t.truncated = true;
  }
}

/** The command as one shell line: its own folder (inside the workspace only), its variables, its words quoted. */
function commandLine(workspace: string, params: CreateTerminalRequest): string {
  const words = [params.command, ...(params.args ?? [])];
  // A command with no arguments may be a whole line (agents send `bash -c`-style lines as `command`).
  const command = params.args?.length ? words.map(shellQuote).join(' ') : params.command;
  const env = (params.env ?? []).map((v) => `${v.name}=${shellQuote(v.value)}`);
  const body = env.length ? `env ${env.join(' ')} ${command}` : command;
  if (!params.cwd || params.cwd === workspace) return body;
  workspacePath(workspace, params.cwd);
  return `(cd ${shellQuote(params.cwd)} && ${body})`;
}

function exitOf(cell: CellItem): TerminalExitStatus | null {
  if (cell.status === 'running' || cell.status === 'streaming' || cell.status === 'awaiting-approval') return null;
  if (cell.status === 'interrupted') return { exitCode: null, signal: 'SIGINT' };
  if (cell.status === 'timeout' || cell.status === 'died') return { exitCode: null, signal: 'SIGKILL' };
  return { exitCode: cell.exitCode ?? (cell.status === 'done' ? 0 : 1), signal: null };
}
