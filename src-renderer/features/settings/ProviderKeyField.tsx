import { useEffect, useState } from 'react';
import type { KeyProvider, KeyStatus, Settings } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { keyServiceAt } from '@contract/key-services';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { keyStorageSentence } from '../common/key-storage';
import { KEY_LABEL, KEY_PAGES } from '../common/providers';

/** The key the chosen provider needs, or null when it needs none (Ollama, one's own server). */
function neededKey(settings: Settings): KeyProvider | null {
  if (settings.provider === 'openai' || settings.provider === 'anthropic') return settings.provider;
  if (settings.provider === 'openai-compatible') return (keyServiceAt(settings.baseUrl)?.id as KeyProvider | undefined) ?? null;
  return null;
}

/**
 * Under Settings → Provider: the chosen provider's key, and a field to add it right here when there is
 * none. Saving a key changes nothing else (not the model, not the base URL).
 */
export function ProviderKeyField({ settings }: { settings: Settings }) {
  const provider = neededKey(settings);
  const storage = useApp((s) => s.secretStorage);
  const setProviderReady = useApp((s) => s.setProviderReady);
  // Kept with the provider it was asked for, so a switch never shows the previous provider's key.
  const [known, setStatus] = useState<KeyStatus | null>(null);
  const status = known?.provider === provider ? known : null;
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let shown = true;
    if (provider)
      bridge['keys.list']({}).then(
        (list) => shown && setStatus(list.keys.find((k) => k.provider === provider) ?? null),
        (err: unknown) => shown && setError(plainMessage(err)),
      );
    return () => {
      shown = false;
    };
  }, [provider]);

  if (!provider || !status) return null;
  const label = KEY_LABEL[provider];
  if (status.source) {
    const where =
      status.source === 'env'
        ? `from ${status.envVariable ?? 'the environment'}`
        : status.source === 'memory'
          ? 'kept in memory until the app quits'
          : 'saved in the OS keychain';
    return (
      <div className="setting-note" data-testid="provider-key">
        <p className="small muted">
          {label} key: {where} · ••••{status.last4 ?? ''} (change it on the API keys screen)
        </p>
      </div>
    );
  }
  const save = async () => {
    try {
      setError(null);
      const next = await bridge['keys.set']({ provider, key: value });
      setValue('');
      setStatus(next);
      setProviderReady((await bridge['providers.status']({})).ready);
    } catch (err) {
      setError(plainMessage(err));
    }
  };
  return (
    <form
      className="setting-note provider-key"
      data-testid="provider-key"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) void save();
      }}
    >
      <p className="small">
        {label} needs an API key, and none is set.{' '}
        {KEY_PAGES[provider] && (
          <a href={KEY_PAGES[provider]} target="_blank" rel="noopener noreferrer">
            Get one
          </a>
        )}
      </p>
      <div className="row">
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          aria-label={`${label} API key`}
          placeholder="Paste the key"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" className="primary" disabled={!value.trim()}>
          Save key
        </button>
      </div>
      <p className="small muted">{keyStorageSentence(storage)}</p>
      {error && (
        <p className="field-error small" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
