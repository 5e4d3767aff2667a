import { useEffect, useId, useRef, useState } from 'react';
import type { ModelChoice, ProviderKind } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { DEFAULT_BASE_URLS, EXAMPLE_COMPATIBLE_BASE_URL } from '@contract/provider-urls';
import { bridge } from '../../bridge/bridge';
import { useApp, useModelChoice } from '../../state/app-store';
import { PROVIDER_LABEL, PROVIDERS } from '../common/providers';
import { ModelFacts } from './ModelFacts';
import { OllamaModels } from './OllamaModels';

/**
 * Provider and model of the open conversation (or of a new one) in the top bar; a choice here applies
 * to the open conversation and to new ones. Choosing a model list is a user action: it is the only
 * thing here that contacts the provider.
 */
export function ModelPicker() {
  const choice = useModelChoice();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    // Esc closes it wherever the focus is (the button that opened it, too), before it stops a turn.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('mousedown', onDown);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open]);
  if (!choice) return <span className="muted">Loading…</span>;
  return (
    <div className="model-picker" ref={box}>
      <button
        className="model-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title={`${PROVIDER_LABEL[choice.provider]} · ${choice.model} (provider and model)`}
        data-testid="model-button"
      >
        <span className="model-provider muted">{PROVIDER_LABEL[choice.provider]} · </span>
        <strong>{choice.model}</strong> ▾
      </button>
      {open && <PickerPanel choice={choice} onClose={() => setOpen(false)} />}
    </div>
  );
}

function PickerPanel({ choice: settings, onClose }: { choice: ModelChoice; onClose(): void }) {
  const updateSettings = useApp((s) => s.updateSettings);
  const setOnboarding = useApp((s) => s.setOnboarding);
  const [provider, setProvider] = useState<ProviderKind>(settings.provider);
  const [model, setModel] = useState(settings.model);
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl ?? '');
  const [models, setModels] = useState<string[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const listId = useId();

  const load = async () => {
    setStatus('Loading models…');
    try {
      // Providers without a Base URL field name none: main uses the one saved for them (a URL named
      // here is asked without the saved key).
      const named = provider === 'openai-compatible' || provider === 'ollama' ? { baseUrl: baseUrl.trim() || null } : {};
      const { models } = await bridge['providers.models']({ provider, ...named });
      setModels(models);
      setStatus(`${models.length} models`);
    } catch (err) {
      setStatus(plainMessage(err));
    }
  };
  const local = provider === 'ollama' || provider === 'openai-compatible';
  const target = { provider, baseUrl: baseUrl.trim() || null, model: model.trim() || settings.model };
  const apply = async () => {
    const saved = await updateSettings(target);
    if (!saved) return;
    // A local model is probed when chosen (once; its answer is kept), so the first turn already
    // talks to it in the form that works. It runs in the background: the picker closes at once.
    if (local && target.model !== settings.model) void bridge['models.probe']({ target }).catch(() => undefined);
    onClose();
  };
  return (
    <div className="popover" role="dialog" aria-label="Choose provider and model" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <label className="field">
        <span>Provider</span>
        <select value={provider} onChange={(e) => (setProvider(e.target.value as ProviderKind), setModels(null))}>
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {PROVIDER_LABEL[p]}
            </option>
          ))}
        </select>
      </label>
      {(provider === 'openai-compatible' || provider === 'ollama') && (
        <label className="field">
          <span>Base URL</span>
          <input
            value={baseUrl}
            placeholder={provider === 'ollama' ? DEFAULT_BASE_URLS.ollama : EXAMPLE_COMPATIBLE_BASE_URL}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
        </label>
      )}
      <label className="field">
        <span>Model</span>
        <input
          list={listId}
          value={model}
          onChange={(e) => setModel(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && void apply()}
        />
        <datalist id={listId}>
          {models?.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      {provider === 'ollama' && <OllamaModels baseUrl={target.baseUrl} model={model} onPick={setModel} />}
      <ModelFacts target={target} />
      {models && models.length > 0 && (
        <ul className="model-list" aria-label="Models">
          {models.slice(0, 200).map((m) => (
            <li key={m}>
              <button className={m === model ? 'link active' : 'link'} onClick={() => setModel(m)}>
                {m}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <button onClick={() => void load()}>List models</button>
        <span className="muted small" role="status">
          {status}
        </span>
      </div>
      <div className="row end">
        <button
          className="link"
          onClick={() => {
            onClose();
            setOnboarding(true);
          }}
        >
          Set up a provider…
        </button>
        <button onClick={onClose}>Cancel</button>
        <button className="primary" onClick={() => void apply()}>
          Use this model
        </button>
      </div>
    </div>
  );
}
