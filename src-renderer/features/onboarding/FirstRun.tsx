import { useEffect, useState } from 'react';
import { errorMessage, type LocalServer, type ProviderKind, type RequestOutput } from '@contract';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { useComposer } from '../../state/composer-store';
import { DEFAULT_MODEL, KEY_PAGES, PROVIDER_LABEL } from '../common/providers';
import { ModelChoice } from './ModelChoice';

type Detected = RequestOutput<'providers.detect'>;

/**
 * First run: offers what is already on this machine — keys in the environment, local model servers
 * that answered — each with its models, so one click reaches a working chat. Nothing is sent to any
 * provider until the user picks.
 */
export function FirstRun() {
  const [detected, setDetected] = useState<Detected | null>(null);
  const [error, setError] = useState<string | null>(null);
  const updateSettings = useApp((s) => s.updateSettings);
  const setProviderReady = useApp((s) => s.setProviderReady);

  useEffect(() => {
    bridge['providers.detect']({}).then(setDetected, (err: unknown) => setError(errorMessage(err)));
  }, []);

  const pick = async (provider: ProviderKind, model: string, baseUrl: string | null) => {
    const saved = await updateSettings({ provider, model, baseUrl });
    if (!saved) return;
    setProviderReady(true);
    useComposer.getState().focusComposer();
  };

  const nothingFound = detected && detected.env.length === 0 && detected.local.length === 0;
  return (
    <div className="modal-backdrop">
      <div className="modal first-run" role="dialog" aria-modal="true" aria-labelledby="first-run-title" data-testid="first-run">
        <h1 id="first-run-title">Choose a model to start</h1>
        <p className="muted">The agent needs a language model. Pick one below; nothing is sent anywhere until you do.</p>
        {!detected && !error && (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Looking for keys and local model servers…
          </p>
        )}
        {error && <p className="field-error">{error}</p>}
        {detected?.env.map((e) => (
          <ModelChoice
            key={e.provider}
            title={PROVIDER_LABEL[e.provider]}
            detail={`Key found in ${e.variable}`}
            models={e.suggestedModels}
            action={`Use ${PROVIDER_LABEL[e.provider]}`}
            onPick={(model) => void pick(e.provider, model, null)}
          />
        ))}
        {detected?.local.map((server: LocalServer) => (
          <ModelChoice
            key={server.id}
            title={server.name}
            detail={`Running on this machine at ${server.baseUrl} · ${server.models.length} model${server.models.length === 1 ? '' : 's'}`}
            models={server.models}
            action={`Use ${server.name}`}
            onPick={(model) => void pick(server.provider, model, server.baseUrl)}
          />
        ))}
        {nothingFound && <p className="muted">No API key in the environment, and no Ollama, LM Studio or Jan server answered on its usual port.</p>}
        <KeyEntry onSaved={(provider) => void pick(provider, DEFAULT_MODEL[provider] ?? 'gpt-4.1', null)} />
        <div className="row end">
          <button className="link" onClick={() => setProviderReady(true)}>
            Not now
          </button>
        </div>
      </div>
    </div>
  );
}

function KeyEntry({ onSaved }: { onSaved(provider: ProviderKind): void }) {
  const [provider, setProvider] = useState<'openai' | 'anthropic'>('openai');
  const [key, setKey] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const save = async () => {
    try {
      setStatus('Saving…');
      await bridge['keys.set']({ provider, key });
      setKey('');
      setStatus(null);
      onSaved(provider);
    } catch (err) {
      setStatus(errorMessage(err));
    }
  };
  return (
    <form
      className="choice"
      onSubmit={(e) => {
        e.preventDefault();
        if (key.trim()) void save();
      }}
    >
      <div className="choice-head">
        <strong>Use an API key</strong>
        <a className="small" href={KEY_PAGES[provider]} target="_blank" rel="noopener noreferrer">
          Get an {PROVIDER_LABEL[provider]} key
        </a>
      </div>
      <div className="row">
        <select aria-label="Provider for the key" value={provider} onChange={(e) => setProvider(e.target.value as 'openai' | 'anthropic')}>
          <option value="openai">OpenAI</option>
          <option value="anthropic">Anthropic</option>
        </select>
        <input type="password" autoComplete="off" aria-label="API key" placeholder="Paste the key (stored in the OS keychain)" value={key} onChange={(e) => setKey(e.target.value)} />
        <button type="submit" className="primary" disabled={!key.trim()}>
          Save and start
        </button>
      </div>
      {status && <p className="small muted">{status}</p>}
    </form>
  );
}
