import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Conversation } from '@contract';
import { notebookTextOf } from '../../src-main/core/notebook/notebook-files';
import { rerunNotebooks, rerunWorkFolder, type RerunKernel } from './rerun-worker';

export type { RerunKernel };

// A live session's export must re-run top to bottom in Jupyter, without --allow-errors, and print
// what it printed in the app (docs/notebooks.md, "Exports that re-run"). This runs that check on
// conversations: each is exported, put in a copy of its workspace (the notebook beside the files
// its cells used, as a user would keep it), and executed by nbclient (what `jupyter nbconvert
// --execute` runs) with a real python3 kernel, a fresh one per notebook, in one Python kept for the
// test process (rerun-worker.ts).
// Every code cell that ran cleanly in the app must print the same text again, workspace paths
// read as the copy's.

// As the app exports: with its resources, so the runner helpers a notebook uses are defined in it.
const META = { appVersion: 'test', provider: 'test', model: 'test', resourcesDir: path.resolve(import.meta.dirname, '../../resources') };

interface ExecutedCell {
  source: string;
  tags: string[];
  outputs: Array<{ output_type: string; name?: string; text?: string }>;
}

/** Conversations worth running: some code the app ran. */
function ranCode(conv: Conversation): boolean {
  return conv.items.some((i) => i.kind === 'cell' && !['skipped', 'awaiting-approval', 'streaming'].includes(i.status));
}

/** Text a run printed (to one stream, or to both), as one string, line endings as Jupyter keeps them. */
function streamText(
  outputs: ReadonlyArray<{ output_type: string; name?: string; text?: string | string[] }>,
  name?: 'stdout' | 'stderr',
): string {
  return outputs
    .filter((o) => o.output_type === 'stream' && (name === undefined || o.name === name))
    .map((o) => (Array.isArray(o.text) ? o.text.join('') : (o.text ?? '')))
    .join('')
    .replace(/\r\n/g, '\n');
}

/**
 * Throws, naming the conversation and cell, when an export does not run through or prints something
 * else. The notebooks run in copies of the workspaces, removed afterwards.
 */
export async function expectExportsRerun(conversations: readonly Conversation[], kernel: RerunKernel = {}): Promise<void> {
  const runnable = conversations.filter(ranCode);
  if (runnable.length === 0) return;
  const root = mkdtempSync(path.join(rerunWorkFolder(kernel), 'check-'));
  try {
    const jobs = runnable.map((conv, index) => {
      const folder = path.join(root, `conversation-${index}`);
      mkdirSync(folder, { recursive: true });
      if (existsSync(conv.workspace)) {
        cpSync(conv.workspace, folder, { recursive: true, filter: (source) => !source.split(path.sep).includes('.oi') });
      }
      const file = path.join(folder, 'exported.ipynb');
      writeFileSync(file, notebookTextOf(conv, META).text);
      return { conv, folder, file };
    });
    const results = await rerunNotebooks<{ error: string | null; cells: Record<string, ExecutedCell> }>(
      kernel,
      jobs.map((j) => [j.file, j.folder] as const),
    );
    const problems: string[] = [];
    results.forEach((result, index) => {
      const { conv, folder } = jobs[index]!;
      const name = `conversation "${conv.title}" (${conv.id})`;
      if (result.error) problems.push(`${name}: nbconvert --execute stopped: ${result.error}`);
      conv.items.forEach((item, position) => {
        // Outputs of cells imported from a file (or never started here) were made elsewhere.
        if (item.kind !== 'cell' || item.status !== 'done' || item.imported || item.startedAt === null) return;
        const executed = result.cells[item.id];
        if (!executed) return;
        const expected = streamText(item.outputs).split(conv.workspace).join(folder);
        const got = streamText(executed.outputs);
        // A package installed during the run printed pip's transcript first; in the notebook that is
        // the %pip cell's output, so the cell's own text is what follows it.
        const next = conv.items[position + 1];
        const installedHere = next?.kind === 'notice' && next.install !== undefined;
        if (installedHere && expected.endsWith(got)) return;
        // IPython's cell magics (%%bash…) write from a second thread, and on a loaded machine
        // ipykernel 6 loses parts of a long output (seen cut at 2.9 to 8.5 KB of 9.8 KB, at random,
        // and a run of lines missing from the middle). Lines printed exactly and in order, only fewer,
        // are that loss, not a difference in what the code printed.
        const magicCell = executed.source.startsWith('%%');
        if (magicCell && got.length > 0 && expected.length > 2048 && (expected.startsWith(got) || linesInOrder(got, expected))) return;
        // Each stream printed the same (stderr is its own stream in the app too); across the two,
        // a cell magic reads stdout and stderr from two pipes and may interleave them differently.
        const sameStreams = (['stdout', 'stderr'] as const).every(
          (stream) => streamText(executed.outputs, stream) === streamText(item.outputs, stream).split(conv.workspace).join(folder),
        );
        if (!sameStreams) {
          let at = 0;
          while (at < got.length && got[at] === expected[at]) at++;
          const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 60), at + 140));
          problems.push(
            `${name}, cell ${item.id} (${item.language}: ${JSON.stringify(item.code.slice(0, 80))}): printed ${got.length} characters in Jupyter, ` +
              `${expected.length} in the app, first different at ${at}: ${around(got)} in Jupyter, ${around(expected)} in the app`,
          );
        }
      });
    });
    if (problems.length > 0) throw new Error(`exports that do not re-run in Jupyter:\n${problems.join('\n')}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Every line of `part` is a line of `whole`, in the same order (some of `whole`'s may be missing). */
function linesInOrder(part: string, whole: string): boolean {
  const want = whole.split('\n');
  let at = 0;
  for (const line of part.split('\n')) {
    while (at < want.length && want[at] !== line) at++;
    if (at === want.length) return false;
    at++;
  }
  return true;
}
