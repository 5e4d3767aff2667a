import { useState } from 'react';
import type { KeyStatus, KeyTestResult } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { KEY_LABEL, KEY_PAGES } from '../common/providers';
import { keyTestText } from './key-test-text';

const MASK = '••••••••';

function describe(status: KeyStatus): string {
  const tail = status.last4 ? `${MASK}${status.last4}` : MASK;
  switch (status.source) {
    case 'keychain':
      return `Saved in the OS keychain · ${tail}`;
    case 'memory':
      return `Kept in memory until the app quits · ${tail}`;
    case 'env':
      return `From the environment variable ${status.envVariable ?? ''} · ${tail}`;
    default:
      return 'Not set';
  }
}

/** One provider's key: add or replace (typed, never shown back), test, remove. */
export function KeyRow({ status, onChange }: { status: KeyStatus; onChange(status: KeyStatus): void }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<KeyTestResult | { ok: 'error'; message: string } | null>(null);
  const label = KEY_LABEL[status.provider];
  const saved = status.source === 'keychain' || status.source === 'memory';

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      setResult({ ok: 'error', message: plainMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(async () => {
      const next = await bridge['keys.set']({ provider: status.provider, key: value });
      setValue('');
      setEditing(false);
      setResult(null);
      onChange(next);
    });
  const test = (typed: boolean) =>
    run(async () => {
      setResult(null);
      setResult(await bridge['keys.test']({ provider: status.provider, ...(typed && value.trim() ? { key: value } : {}) }));
    });
  const remove = () =>
    run(async () => {
      onChange(await bridge['keys.delete']({ provider: status.provider }));
      setResult(null);
    });

  return (
    <li className="key-row" data-testid={`key-${status.provider}`} aria-label={`${label} key`}>
      <div className="key-info">
        <strong>{label}</strong>
        <span className={status.source ? 'key-status' : 'key-status muted'} data-testid="key-status">
          {describe(status)}
        </span>
        {!status.source && KEY_PAGES[status.provider] && (
          <a className="small" href={KEY_PAGES[status.provider]} target="_blank" rel="noopener noreferrer">
            Get a key
          </a>
        )}
      </div>
      {editing ? (
        <form
          className="key-edit"
          onSubmit={(e) => {
            e.preventDefault();
            if (value.trim()) void save();
          }}
        >
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            aria-label={`${label} API key`}
            placeholder="Paste the key"
            value={value}
            autoFocus
            onChange={(e) => setValue(e.target.value)}
          />
          <button type="submit" className="primary" disabled={!value.trim() || busy}>
            Save
          </button>
          <button type="button" disabled={!value.trim() || busy} onClick={() => void test(true)}>
            Test
          </button>
          <button type="button" onClick={() => (setEditing(false), setValue(''), setResult(null))}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="key-actions">
          <button onClick={() => setEditing(true)}>{saved ? 'Replace' : 'Add key'}</button>
          {status.source && (
            <button disabled={busy} onClick={() => void test(false)}>
              Test
            </button>
          )}
          {saved && (
            <button className="danger" disabled={busy} onClick={() => void remove()} aria-label={`Remove the ${label} key`}>
              Remove
            </button>
          )}
        </div>
      )}
      {busy && <span className="muted small">Working…</span>}
      {result && (
        <div className={result.ok === true ? 'key-result ok' : 'key-result bad'} role="status" data-testid="key-result">
          {result.ok === 'error' ? `The test failed: ${result.message}` : keyTestText(result)}
        </div>
      )}
    </li>
  );
}
