import { Suspense } from 'react';
import type { CellItem } from '@contract';
import { useApp } from '../../state/app-store';
import { hasFeed } from '../../state/terminal-feeds';
import { lazyNamed } from '../common/lazy-named';
import { RichOutput } from './RichOutput';
import { SavedOutput } from './SavedOutput';

// xterm (a third of the old bundle) loads when a cell first runs live; the bytes wait in the feed.
export const loadTerminalView = () => import('./TerminalView');
const TerminalView = lazyNamed(loadTerminalView, 'TerminalView');

/**
 * The terminal and the rich outputs, in order. A cell running (or run) in this session shows its live
 * terminal (xterm); one loaded from disk shows its saved text as HTML, which costs far less to mount.
 */
export function CellOutputs({ cell }: { cell: CellItem }) {
  const running = cell.status === 'running';
  const typeInto = useApp((s) => s.typeInto);
  const live = running || hasFeed(cell.id);
  const saved = live
    ? ''
    : cell.outputs
        .filter((o) => o.output_type === 'stream')
        .map((o) => (o.output_type === 'stream' ? o.text : ''))
        .join('');
  const rich = cell.outputs.map((o, i) => [o, i] as const).filter(([o]) => o.output_type !== 'stream');
  return (
    <>
      {live ? (
        <Suspense fallback={<div className="terminal terminal-empty" />}>
          <TerminalView cellId={cell.id} onKeys={running ? (data) => void typeInto(cell.id, data) : null} />
        </Suspense>
      ) : (
        saved && <SavedOutput text={saved} />
      )}
      {rich.map(([o, i]) => (
        <RichOutput key={i} output={o} cellId={cell.id} scripts={!cell.imported} />
      ))}
    </>
  );
}
