import { Suspense } from 'react';
import type { CellItem, CellOutput } from '@contract';
import { useApp } from '../../state/app-store';
import { lazyNamed } from '../common/lazy-named';
import { groupOutputs } from './output-groups';
import { RichOutput } from './RichOutput';
import { StreamBlock } from './StreamBlock';

// xterm (a third of the old bundle) loads when a cell first runs live; the bytes wait in the feed.
export const loadTerminalView = () => import('./TerminalView');
const TerminalView = lazyNamed(loadTerminalView, 'TerminalView');

/**
 * A cell's outputs. While it runs: its live terminal (xterm, which the person can type into; stderr
 * in red) and the rich outputs as they come. Once it has run (or was loaded, or imported from a
 * notebook): every output in its order, text as HTML (far cheaper to mount than a terminal) with
 * stderr marked apart from stdout.
 */
export function CellOutputs({ cell }: { cell: CellItem }) {
  const typeInto = useApp((s) => s.typeInto);
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
  return <OrderedOutputs outputs={cell.outputs} cell={cell} />;
}

function OrderedOutputs({ outputs, cell }: { outputs: CellOutput[]; cell: CellItem }) {
  return (
    <>
      {groupOutputs(outputs).map((group) =>
        group.kind === 'streams' ? (
          <StreamBlock key={group.key} parts={group.parts} />
        ) : (
          <RichOutput key={group.key} output={group.output} cellId={cell.id} scripts={!cell.imported} />
        ),
      )}
    </>
  );
}
