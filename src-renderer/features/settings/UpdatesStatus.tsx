import { useEffect, useState } from 'react';
import type { UpdateStatus } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';

const PHASE: Record<UpdateStatus['phase'], string> = {
  idle: 'Not checked yet.',
  checking: 'Checking…',
  'up-to-date': 'This is the newest version.',
  downloading: 'Downloading',
  ready: 'Ready: installed when the app quits',
  failed: 'The last check failed',
};

/**
 * Settings → Updates, under the switch (docs/release.md#updates): the version, "Check now", and a
 * newer version's release notes, shown as text. A build without a feed (made from source, browser
 * mode, the CLI) says so instead.
 */
export function UpdatesStatus() {
  const [status, setStatus] = useState<UpdateStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    bridge['app.updates']({}).then(setStatus, (err: unknown) => setError(plainMessage(err)));
  }, []);

  const checkNow = () => {
    setChecking(true);
    setError(null);
    bridge['app.check-updates']({})
      .then(setStatus, (err: unknown) => setError(plainMessage(err)))
      .finally(() => setChecking(false));
  };
  if (!status) return error ? <p className="error small">{error}</p> : null;
  if (!status.available)
    return (
      <p className="muted small" data-testid="updates-status">
        Version {status.currentVersion}. This build has no update feed: only the desktop app’s release builds look for new versions (a build
        you made yourself, browser mode and <code>oi</code> update with their source).
      </p>
    );
  return (
    <div data-testid="updates-status">
      <p className="muted small" role="status">
        Version {status.currentVersion}. {PHASE[status.phase]}
        {status.version && status.phase !== 'up-to-date' ? ` ${status.version}` : ''}
        {status.phase === 'failed' && status.error ? `: ${status.error}` : ''}
      </p>
      <button type="button" onClick={checkNow} disabled={checking}>
        {checking ? 'Checking…' : 'Check now'}
      </button>
      {status.releaseNotes && (
        <div aria-label={`Release notes of ${status.version ?? 'the new version'}`}>
          <h3>What is new in {status.version}</h3>
          <pre className="release-notes">{status.releaseNotes}</pre>
        </div>
      )}
      {error && <p className="error small">{error}</p>}
    </div>
  );
}
