import { useEffect, useState } from 'react';
import type { LocalServer, RequestOutput } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import { PROVIDER_LABEL } from '../common/providers';
import { KeyChoice } from './KeyChoice';
import { ModelChoice } from './ModelChoice';
import { ServerChoice } from './ServerChoice';
import { startWith } from './start-with';

type Detected = RequestOutput<'providers.detect'>;

/**
 * First run: every way in on one screen — what is already on this machine (keys in the environment,
 * local model servers that answered), an API key, or any OpenAI-compatible server by its URL — each
 * ending in a working chat with one click. Nothing is sent to a provider until the user picks.
 */
export function FirstRun() {
  const [detected, setDetected] = useState<Detected | null>(null);
  const [error, setError] = useState<string | null>(null);
  const setOnboarding = useApp((s) => s.setOnboarding);

  useEffect(() => {
    bridge['providers.detect']({}).then(setDetected, (err: unknown) => setError(plainMessage(err)));
  }, []);
  const pick = async (choice: Parameters<typeof startWith>[0]) => {
    const failed = await startWith(choice);
    if (failed) setError(failed);
  };

  const found = detected ? detected.env.length + detected.local.length : 0;
  return (
    <div className="modal-backdrop">
      <div className="modal first-run" role="dialog" aria-modal="true" aria-labelledby="first-run-title" data-testid="first-run">
        <h1 id="first-run-title">Choose a model to start</h1>
        <p className="muted">The agent needs a language model. Pick one way below; nothing is sent anywhere until you do.</p>
        <h2 className="first-run-section">On this machine</h2>
        {!detected && !error && (
          <p className="muted small" role="status">
            <span className="spinner" aria-hidden="true" /> Looking for keys and local model servers…
          </p>
        )}
        {error && <p className="field-error">{error}</p>}
        {detected?.env.map((e) => {
          const title = e.service?.label ?? PROVIDER_LABEL[e.provider];
          return (
            <ModelChoice
              key={e.variable}
              title={title}
              detail={`Key found in ${e.variable}`}
              models={e.suggestedModels}
              action={`Use ${title}`}
              onPick={(model) => void pick({ provider: e.provider, model, baseUrl: e.service?.baseUrl ?? null })}
            />
          );
        })}
        {detected?.local.map((server: LocalServer) => (
          <ModelChoice
            key={server.id}
            title={server.name}
            detail={`Running on this machine at ${server.baseUrl} · ${server.models.length} model${server.models.length === 1 ? '' : 's'}`}
            models={server.models}
            action={`Use ${server.name}`}
            onPick={(model) => void pick({ provider: server.provider, model, baseUrl: server.baseUrl })}
          />
        ))}
        {detected && found === 0 && (
          <p className="muted small">No API key in the environment, and no Ollama, LM Studio or Jan server answered on its usual port.</p>
        )}
        <h2 className="first-run-section">Or connect one</h2>
        <KeyChoice />
        <ServerChoice />
        <div className="row end">
          <button className="link" onClick={() => setOnboarding(false)}>
            Not now
          </button>
        </div>
      </div>
    </div>
  );
}
