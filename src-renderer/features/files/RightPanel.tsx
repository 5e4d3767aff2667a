import { useRef } from 'react';
import { LIMITS, clamp, usePanels } from '../layout/panel-sizes';
import { ResizeHandle } from '../layout/ResizeHandle';
import { PreviewPanel } from '../preview/PreviewPanel';
import { FileTree } from './FileTree';

/** The workspace file tree above the preview, split by a draggable handle. */
export function RightPanel() {
  const treeShare = usePanels((s) => s.treeShare);
  const resize = usePanels((s) => s.resize);
  const box = useRef<HTMLElement>(null);
  return (
    <aside className="right-panel" ref={box} aria-label="Workspace" style={{ gridTemplateRows: `${treeShare * 100}% 5px 1fr` }}>
      <FileTree />
      <ResizeHandle
        orientation="horizontal"
        label="Resize the file tree and the preview"
        value={treeShare}
        min={LIMITS.treeShare[0]}
        max={LIMITS.treeShare[1]}
        step={24}
        onResize={(delta, start) => {
          const height = box.current?.clientHeight ?? 600;
          resize({ treeShare: clamp(start + delta / height, LIMITS.treeShare) });
        }}
      />
      <PreviewPanel />
    </aside>
  );
}
