import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { errorMessage } from '@contract';
import type { CellOutput } from '@contract';
import { writeFileAtomic } from '../core/fs/atomic-write';
import type { ExportMeta } from '../core/notebook/ipynb-export';
import type { CliSession } from './cli-session';
import { listSavedCommands } from './saved-command-line';

export const MAGIC_HELP = `Commands:
  %reset                 start a new conversation
  %undo                  remove your last message and everything after it
  %retry                 ask the model again for its last answer (after a failed call); code that ran stays
  %rewind [n] [--force]  put the workspace's files back as they were before the n-th last cell ran
                         (default 1); --force also replaces files changed outside since
  %tokens                tokens used, cost, and how full the context window is
  %save <file.json>      save this conversation as Open Interpreter (LMC) messages
  %load <file.json>      continue a conversation saved by %save or by Open Interpreter
  %export <file.ipynb>   export this conversation as a Jupyter notebook (%jupyter too; bare, a new file here)
  %traceback             the whole traceback of the last error
  %commands              the saved commands, typed as /name [arguments]
  !<command>             run a shell command here (also %% <command>); the model does not see it
  %help                  this help
  exit                   leave (Ctrl-D works too; Ctrl-C stops a running turn)`;

export interface MagicContext {
  session: CliSession;
  print(line: string): void;
  /** The app's version and the model in use, for the notebook's metadata. */
  meta(): ExportMeta;
}

/** Runs a %command; returns false when the line is not one. Errors are printed, not thrown. */
export async function runMagic(line: string, ctx: MagicContext): Promise<boolean> {
  const m = /^%(\w+)\s*(.*)$/.exec(line.trim());
  if (!m) return false;
  const [, name, rest] = m;
  const arg = (rest ?? '').trim();
  try {
    const command = COMMANDS[name ?? ''];
    if (command) await command(arg, ctx);
    else ctx.print(`Unknown command %${name}. Type %help for the list.`);
  } catch (err) {
    ctx.print(`%${name} failed: ${errorMessage(err)}`);
  }
  return true;
}

const needFile = (arg: string, example: string): string => {
  if (!arg) throw new Error(`name a file, for example %${example}`);
  return path.resolve(arg.replace(/^["']|["']$/g, ''));
};

/** `<dir>/<stem>.ipynb`, or `<stem>-2.ipynb`, `-3`… when that is taken. */
function freshName(dir: string, stem: string): string {
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${stem}${n === 1 ? '' : `-${n}`}.ipynb`);
    if (!existsSync(file)) return file;
  }
}

const COMMANDS: Record<string, (arg: string, ctx: MagicContext) => Promise<void>> = {
  async help(_arg, { print }) {
    print(MAGIC_HELP);
  },
  async commands(_arg, { session, print }) {
    print(await listSavedCommands(session));
  },
  // Reached only while the agent works: at the idle prompt %retry starts a turn (interactive.ts).
  async retry() {
    throw new Error('the agent is working; retry once it is done (Ctrl-C stops it)');
  },
  async reset(_arg, { session, print }) {
    if (session.running()) throw new Error('the agent is working; press Ctrl-C to stop it first');
    session.switchTo(await session.call('conversation.create', {}));
    print('Started a new conversation.');
  },
  async undo(_arg, { session, print }) {
    // A copy: in-process, the conversation object is the live one that undo changes.
    const beforeItems = [...(await session.conversation()).items];
    const conv = await session.call('conversation.undo', { conversationId: session.conversationId });
    print(`Removed your last message and what followed (${conv.items.length} item${conv.items.length === 1 ? '' : 's'} left).`);
    // The conversation forgets; the files do not. Offer the way back for what those cells changed.
    const removed = beforeItems
      .slice(conv.items.length)
      .filter((i) => i.kind === 'cell' && i.changes?.checkpointed && i.changes.files.length > 0);
    if (removed.length > 0) {
      const { checkpoints } = await session.call('checkpoints.list', { conversationId: session.conversationId });
      const at = checkpoints.findIndex((c) => c.cellId === removed[0]?.id);
      if (at >= 0)
        print(`Those runs changed files in the workspace; %rewind ${checkpoints.length - at} puts them back as they were before.`);
    }
  },
  async rewind(arg, { session, print }) {
    if (session.running()) throw new Error('the agent is working; press Ctrl-C to stop it first');
    const force = /(^|\s)--force(\s|$)/.test(arg);
    const n = Number(arg.replace('--force', '').trim() || '1');
    if (!Number.isInteger(n) || n < 1) throw new Error('give how many cells back, for example %rewind 2');
    const { checkpoints } = await session.call('checkpoints.list', { conversationId: session.conversationId });
    // A rewind is a checkpoint too (the state it replaced), so %rewind 1 right after one undoes it.
    const target = checkpoints[checkpoints.length - n];
    if (!target)
      throw new Error(
        `there ${checkpoints.length === 1 ? 'is 1 checkpoint' : `are ${checkpoints.length} checkpoints`} in this conversation`,
      );
    const outcome = await session.call('checkpoints.restore', {
      conversationId: session.conversationId,
      cellId: target.cellId,
      confirm: force,
    });
    if (outcome.cannotRestoreCount > 0) {
      print(`${outcome.status === 'restored' ? 'Could not' : 'A rewind cannot'} put these back (not kept by the checkpoint):`);
      for (const u of outcome.cannotRestore.slice(0, 20)) print(`  ${u.path}: ${u.reason}`);
      if (outcome.cannotRestoreCount > 20) print(`  … and ${outcome.cannotRestoreCount - 20} more`);
    }
    if (outcome.status === 'needs-confirmation') {
      print(`Not rewound: these files were changed outside the app since, and the rewind would replace them:`);
      for (const p of outcome.modifiedOutside.slice(0, 20)) print(`  ${p}`);
      if (outcome.modifiedOutside.length > 20) print(`  … and ${outcome.modifiedOutside.length - 20} more`);
      print(`Run %rewind ${n} --force to rewind anyway.`);
      return;
    }
    print(`Rewound the workspace to before that cell: ${outcome.changedPaths} paths put back. %rewind 1 undoes this rewind.`);
  },
  async tokens(_arg, { session, print }) {
    const conv = await session.conversation();
    const { inputTokens, outputTokens, costUsd } = conv.usage;
    print(
      `Tokens so far: ${inputTokens.toLocaleString('en-US')} in, ${outputTokens.toLocaleString('en-US')} out; cost $${costUsd.toFixed(4)}.`,
    );
    const usage = session.lastUsage;
    if (usage) {
      const pct = Math.round((usage.contextTokens / usage.contextWindow) * 100);
      print(
        `Last call: about ${usage.contextTokens.toLocaleString('en-US')} of ${usage.contextWindow.toLocaleString('en-US')} context tokens (${pct}%).`,
      );
    }
  },
  async save(arg, { session, print }) {
    const file = needFile(arg, 'save conversation.json');
    const { json } = await session.call('conversation.export-lmc', { conversationId: session.conversationId });
    // A temp file renamed over the name: a crash leaves the old file whole, and a link at the name is replaced, not followed.
    await writeFileAtomic(file, json);
    print(`Saved to ${file}.`);
  },
  async load(arg, { session, print }) {
    if (session.running()) throw new Error('the agent is working; press Ctrl-C to stop it first');
    const file = needFile(arg, 'load conversation.json');
    const json = await readFile(file, 'utf8');
    const conv = await session.call('conversation.import', { json, title: path.basename(file).replace(/\.json$/i, '') });
    session.switchTo(conv);
    print(`Loaded ${conv.items.length} items from ${file} into a new conversation; go on where it left off.`);
  },
  async traceback(_arg, { session, print }) {
    const conv = await session.conversation();
    for (let i = conv.items.length - 1; i >= 0; i--) {
      const item = conv.items[i];
      if (item?.kind !== 'cell') continue;
      const error = item.outputs.find((o): o is Extract<CellOutput, { output_type: 'error' }> => o.output_type === 'error');
      if (!error) continue;
      const lines = error.traceback.length > 0 ? error.traceback : [`${error.ename}: ${error.evalue}`];
      print(stripVTControlCharacters(lines.join('\n')));
      return;
    }
    print('No error in this conversation yet.');
  },
  async jupyter(arg, ctx) {
    // Classic Open Interpreter's name for it, which took no file name: then one is made in the
    // conversation's folder, beside what its code wrote, never over a file already there.
    await COMMANDS.export?.(arg || freshName(ctx.session.workspace, `conversation-${ctx.session.conversationId.slice(0, 8)}`), ctx);
  },
  async export(arg, { session, print, meta }) {
    const file = needFile(arg, 'export analysis.ipynb');
    if (!file.toLowerCase().endsWith('.ipynb')) throw new Error('the file name should end in .ipynb');
    // Imported on use, so the CLI starts even if the notebook module is being worked on.
    const { exportToFile } = await import('../core/notebook/notebook-files');
    const { loadSubagents } = await import('../core/notebook/subagent-section');
    // Validated against nbformat 4.5 and written atomically (a failed export leaves any old file whole);
    // its sub-agents' cells go under their calls.
    const conv = await session.conversation();
    const written = await exportToFile(conv, file, meta(), await loadSubagents(conv, (id) => session.conversation(id)));
    print(`Exported ${written.cells} cells to ${written.path}.`);
  },
};
