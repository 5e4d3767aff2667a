import { useApp } from '../../state/app-store';

export function TopBar() {
  const { settings, current, updateSettings } = useApp();
  if (!settings) return <header className="topbar" />;
  const usage = current?.conv.usage;
  return (
    <header className="topbar">
      <span className="brand">Open Interpreter</span>
      <span className="model" title="Provider and model">
        {settings.provider} · {settings.model}
      </span>
      <label className="toggle">
        <input type="checkbox" checked={settings.autoRun} onChange={(e) => void updateSettings({ autoRun: e.target.checked })} />
        Auto-run
      </label>
      <span className="sandbox" title="Sandbox">
        {settings.sandbox.enabled ? 'sandbox on' : 'no sandbox'}
      </span>
      {usage && (
        <span className="usage" title="Tokens used in this conversation">
          {usage.inputTokens + usage.outputTokens} tokens
        </span>
      )}
      {current && <span className="workspace" title="Workspace">{current.conv.workspace}</span>}
    </header>
  );
}
