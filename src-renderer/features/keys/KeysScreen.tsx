import { useEffect, useState } from 'react';
import type { KeyStatus } from '@contract';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { keyStorageSentence } from '../common/key-storage';
import { KeyRow } from './KeyRow';

/**
 * API keys per provider. Keys typed here go to main and into the OS keychain (or memory); this screen only ever
 * learns where a key comes from and its last four characters.
 */
export function KeysScreen() {
  const [keys, setKeys] = useState<KeyStatus[] | null>(null);
  const [storage, setStorage] = useState<'keychain' | 'memory' | null>(null);
  const reportError = useApp((s) => s.reportError);
  useEffect(() => {
    let alive = true;
    bridge['keys.list']({}).then((list) => {
      if (!alive) return;
      setKeys(list.keys);
      setStorage(list.storage);
    }, reportError);
    return () => {
      alive = false;
    };
  }, [reportError]);

  const onChange = (status: KeyStatus) => {
    setKeys((list) => list?.map((k) => (k.provider === status.provider ? status : k)) ?? null);
    // A key may make the chosen provider usable (or unusable): re-check.
    void bridge['providers.status']({}).then((s) => useApp.getState().setProviderReady(s.ready));
  };

  return (
    <div className="screen keys-screen" data-testid="keys-screen">
      <h1>API keys</h1>
      <p className="muted small" data-testid="key-storage">
        {keyStorageSentence(storage)} A saved key is never shown again, only its last four characters. Keys from environment variables are
        used when none is saved here.
      </p>
      {!keys ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul className="key-list">
          {keys.map((k) => (
            <KeyRow key={k.provider} status={k} onChange={onChange} />
          ))}
        </ul>
      )}
    </div>
  );
}
