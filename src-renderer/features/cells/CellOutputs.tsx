import { Suspense, useMemo } from 'react';
import type { CellItem, CellOutput } from '@contract';
import { useApp } from '../../state/app-store';
import { useWorkspace } from '../../state/workspace-store';
import { formatBytes } from '../common/use-now';
import { lazyNamed } from '../common/lazy-named';
import { cutsIn, groupOutputs } from './output-groups';
import { RichOutput } from './RichOutput';
import { StreamBlock } from './StreamBlock';

// xterm (a third of the old bundle) loads when a cell first runs live; the bytes wait in the feed.
export const loadTerminalView = () => import('./TerminalView');
const TerminalView = lazyNamed(loadTerminalView, 'TerminalView');

/**
 * A cell's outputs. While it runs: its live terminal (xterm, which the person can type into; stderr
 * in red) and the rich outputs as they come. Once it has run (or was loaded, or imported from a
 * notebook): every output in its order, text as HTML (far cheaper to mount than a terminal) with
 * stderr marked apart from stdout, and a failed first attempt before an automatic install folded.
 */
export function CellOutputs({ cell }: { cell: CellItem }) {
  const typeInto = useApp((s) => s.typeInto);
  // Slices kept across renders, so the groups below (memoised on them) are too.
  const split = cell.firstAttempt ? Math.min(cell.firstAttempt.outputs, cell.outputs.length) : 0;
  const [before, after] = useMemo(
    () => (split > 0 ? [cell.outputs.slice(0, split), cell.outputs.slice(split)] : [[], cell.outputs]),
    [cell.outputs, split],
  );
  if (cell.status === 'running') {
    const rich = cell.outputs.map((o, i) => [o, i] as const).filter(([o]) => o.output_type !== 'stream');
    return (
      <>
        <Suspense fallback={<div className="terminal terminal-empty" />}>
          <TerminalView cellId={cell.id} onKeys={(data) => void typeInto(cell.id, data)} />
        </Suspense>
        {rich.map(([o, i]) => (
          <RichOutput key={i} output={o} cellId={cell.id} scripts={!cell.imported} />
        ))}
      </>
    );
  }
  // A run that failed for want of a package, which was then installed: the failed attempt (and the
  // install's log) folded under one line, the re-run as the result.
  return (
    <>
      {cell.firstAttempt && split > 0 && (
        <details className="first-attempt" data-testid="first-attempt">
          <summary>{cell.firstAttempt.summary}</summary>
          <OrderedOutputs outputs={before} cell={cell} />
        </details>
      )}
      <OrderedOutputs outputs={after} cell={cell} whole={cell.fullOutput} cutsBefore={cutsIn(before)} />
      {cell.fullOutput && <FullOutputLink path={cell.fullOutput.path} bytes={cell.fullOutput.bytes} />}
    </>
  );
}

function OrderedOutputs({
  outputs,
  cell,
  whole,
  cutsBefore = 0,
}: {
  outputs: CellOutput[];
  cell: CellItem;
  whole?: CellItem['fullOutput'];
  /** Markers of rows left out in the outputs before these (a first attempt's). */
  cutsBefore?: number;
}) {
  // Grouping concatenates the text (megabytes for a big run) and StreamBlock memoises on the parts:
  // regrouping on every render of the cell would redraw the whole block each time.
  const groups = useMemo(() => groupOutputs(outputs, cutsBefore), [outputs, cutsBefore]);
  // A run past the cap whose text is one block: that block is its head and tail, and says how many
  // lines of the whole output it leaves out.
  const wholeLines = whole && groups.filter((g) => g.kind === 'streams').length === 1 ? whole.lines : undefined;
  return (
    <>
      {groups.map((group) =>
        group.kind === 'streams' ? (
          <StreamBlock key={group.key} parts={group.parts} wholeLines={wholeLines} cellId={cell.id} />
        ) : (
          <RichOutput key={group.key} output={group.output} cellId={cell.id} scripts={!cell.imported} />
        ),
      )}
    </>
  );
}

/** The whole output of a run that passed the cap, opened in the preview (read without following links). */
function FullOutputLink({ path, bytes }: { path: string; bytes: number }) {
  const showPreview = useWorkspace((s) => s.showPreview);
  return (
    <div className="full-output">
      <button className="link" data-testid="full-output" title={path} onClick={() => void showPreview({ kind: 'file', path })}>
        full output ({formatBytes(bytes)})
      </button>
    </div>
  );
}
