import { useApp } from '../../state/app-store';
import { Icon } from '../common/Icon';
import { usePanels } from '../layout/panel-sizes';
import { NotebookMenu } from '../notebooks/NotebookMenu';
import { ModelPicker } from './ModelPicker';
import { UsageMeter } from './UsageMeter';
import { SandboxBadge } from '../sandbox/SandboxBadge';
import { RemoteKernelButton } from '../kernels/RemoteKernelButton';

export function TopBar() {
  const settings = useApp((s) => s.settings);
  const updateSettings = useApp((s) => s.updateSettings);
  const rightOpen = usePanels((s) => s.rightOpen);
  const resize = usePanels((s) => s.resize);
  return (
    <header className="topbar">
      <ModelPicker />
      {settings && (
        <label className="toggle" title="Run the model's code without asking first">
          <input type="checkbox" role="switch" aria-label="Auto-run" checked={settings.autoRun} onChange={(e) => void updateSettings({ autoRun: e.target.checked })} />
          Auto-run
        </label>
      )}
      {settings && <SandboxBadge sandbox={settings.sandbox} />}
      <RemoteKernelButton />
      <span className="spacer" />
      <NotebookMenu />
      <UsageMeter />
      <button className="icon-button" aria-pressed={rightOpen} aria-label={rightOpen ? 'Hide the files panel' : 'Show the files panel'} title="Files panel" onClick={() => resize({ rightOpen: !rightOpen })}>
        <Icon name="panel" size={18} />
      </button>
    </header>
  );
}
