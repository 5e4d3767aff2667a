import { useApp } from '../../state/app-store';
import { Icon } from '../common/Icon';
import { usePanels } from '../layout/panel-sizes';
import { useNarrow } from '../layout/use-narrow';
import { NotebookMenu } from '../notebooks/NotebookMenu';
import { AgentPicker } from './AgentPicker';
import { ModelPicker } from './ModelPicker';
import { ProfilePicker } from './ProfilePicker';
import { UsageMeter } from './UsageMeter';
import { SandboxBadge } from '../sandbox/SandboxBadge';
import { RemoteKernelButton } from '../kernels/RemoteKernelButton';

export function TopBar() {
  const settings = useApp((s) => s.settings);
  const updateSettings = useApp((s) => s.updateSettings);
  const narrow = useNarrow();
  const open = usePanels((s) => (narrow ? s.drawerOpen : s.rightOpen));
  const toggleFiles = usePanels((s) => s.toggleFiles);
  return (
    <header className="topbar">
      <AgentPicker />
      <ModelPicker />
      <ProfilePicker />
      {settings && (
        <label className="toggle" title="Run the model's code without asking first">
          <input
            type="checkbox"
            role="switch"
            aria-label="Auto-run"
            checked={settings.autoRun}
            onChange={(e) => void updateSettings({ autoRun: e.target.checked })}
          />
          Auto-run
        </label>
      )}
      {settings && <SandboxBadge sandbox={settings.sandbox} />}
      <RemoteKernelButton />
      <span className="spacer" />
      <NotebookMenu />
      <UsageMeter />
      <button
        className="icon-button"
        aria-pressed={open}
        aria-label={open ? 'Hide the files panel' : 'Show the files panel'}
        title="Files panel"
        onClick={() => toggleFiles(narrow)}
      >
        <Icon name="panel" size={18} />
      </button>
    </header>
  );
}
