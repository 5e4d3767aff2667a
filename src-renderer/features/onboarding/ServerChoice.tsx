import { useEffect, useState } from 'react';
import type { KeyTestResult } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { EXAMPLE_COMPATIBLE_BASE_URL } from '@contract/provider-urls';
import { bridge } from '../../bridge/bridge';
import { keyTestText } from '../keys/key-test-text';
import { ChoiceForm } from './ChoiceForm';

/** Typing pauses this long before the server is asked for its models. */
const LIST_DELAY_MS = 500;

function usableUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString().replace(/\/+$/, '') : null;
  } catch {
    return null;
  }
}

/**
 * Any server that speaks the OpenAI API — LM Studio, vLLM, llama.cpp, Ollama, a company gateway: its
 * base URL (its models are listed as soon as it is typed), a key if it needs one, a model, Start.
 */
export function ServerChoice() {
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [listing, setListing] = useState<{ url: string; result: KeyTestResult | null } | null>(null);
  const [model, setModel] = useState('');
  const base = usableUrl(url);

  const list = async (target: string) => {
    setListing({ url: target, result: null });
    // A typed key may go to the URL being tried; without one the server is asked with no key at all
    // (a saved key only ever goes to the base URL saved in Settings: docs/security.md).
    const result: KeyTestResult = key.trim()
      ? await bridge['keys.test']({ provider: 'openai-compatible', baseUrl: target, key }).catch((err: unknown): KeyTestResult => ({
          ok: false,
          message: plainMessage(err),
        }))
      : await bridge['providers.models']({ provider: 'openai-compatible', baseUrl: target }).then(
          ({ models }): KeyTestResult => ({ ok: true, models }),
          (err: unknown): KeyTestResult => ({ ok: false, message: plainMessage(err) }),
        );
    setListing((now) => (now?.url === target ? { url: target, result } : now));
    if (result.ok) setModel((m) => (m && result.models.includes(m) ? m : (result.models[0] ?? '')));
  };
  useEffect(() => {
    if (!base) return;
    const t = setTimeout(() => void list(base), LIST_DELAY_MS);
    return () => clearTimeout(t);
    // Listing follows the URL only; a key typed afterwards is used by "List models" and by Start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [base]);

  const result = listing?.url === base ? listing.result : null;
  const models = result?.ok ? result.models : null;
  return (
    <ChoiceForm
      title="A local or OpenAI-compatible server"
      detail="LM Studio, vLLM, llama.cpp, Ollama, LiteLLM…"
      testId="server-choice"
      choice={base && model.trim() ? { provider: 'openai-compatible', model: model.trim(), baseUrl: base } : null}
      keyToSave={key.trim() ? { provider: 'openai-compatible', value: key } : undefined}
    >
      <div className="row">
        <input
          aria-label="Server base URL"
          placeholder={EXAMPLE_COMPATIBLE_BASE_URL}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          spellCheck={false}
        />
        <input
          type="password"
          autoComplete="off"
          aria-label="Server key (if it needs one)"
          placeholder="Key, if it needs one"
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
      </div>
      <div className="row">
        {models && models.length > 0 ? (
          <select aria-label="Server model" value={model} onChange={(e) => setModel(e.target.value)}>
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        ) : (
          <input aria-label="Server model" placeholder="model name" value={model} onChange={(e) => setModel(e.target.value)} />
        )}
        <button type="button" disabled={!base} onClick={() => base && void list(base)}>
          List models
        </button>
        <button type="submit" className="primary" disabled={!base || !model.trim()}>
          Start
        </button>
      </div>
      <p className="small muted" role="status" data-testid="server-status">
        {!url.trim()
          ? 'Its base URL usually ends in /v1.'
          : !base
            ? 'Type the full address, starting with http:// or https://.'
            : listing?.url === base && !result
              ? 'Asking the server for its models…'
              : result?.ok
                ? `${result.models.length} model${result.models.length === 1 ? '' : 's'} found.`
                : result
                  ? result.problem === 'key'
                    ? keyTestText(result)
                    : `Could not list its models: ${result.message}`
                  : ''}
      </p>
    </ChoiceForm>
  );
}
