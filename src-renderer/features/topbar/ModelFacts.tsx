import { useEffect, useState } from 'react';
import type { ModelCapability, ModelDescription, ModelTarget } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';

/** How the picker names what the capability probe found. */
export function capabilityLabel(capability: ModelCapability | null): string {
  if (!capability) return 'not checked yet';
  switch (capability.mode) {
    case 'native':
      return 'calls tools natively';
    case 'text':
      return `writes tool calls as text (${capability.dialect ?? 'JSON'})`;
    case 'fenced':
      return 'writes code blocks (no tool calls)';
    case 'none':
      return 'did not write code when asked';
  }
}

const isLocal = (target: ModelTarget) => target.provider === 'ollama' || target.provider === 'openai-compatible';

/**
 * What the app knows about a local model: how it calls tools (and a button to check again) and the
 * context window it will be given. Hosted models call tools natively and are not probed.
 */
export function ModelFacts({ target }: { target: ModelTarget }) {
  const [facts, setFacts] = useState<ModelDescription | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const key = JSON.stringify(target);
  useEffect(() => {
    if (!isLocal(target) || !target.model) return;
    let live = true;
    // Typing a model name: ask once the name rests for a moment, not at every key.
    const timer = setTimeout(() => {
      bridge['models.describe']({ target })
        .then((d) => live && (setFacts(d), setStatus(null)))
        .catch((err: unknown) => live && setStatus(plainMessage(err)));
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `key` stands for the target's fields.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (!isLocal(target)) return null;
  const check = async () => {
    setChecking(true);
    setStatus('Asking the model to run one line…');
    try {
      const capability = await bridge['models.probe']({ target });
      setFacts((f) => (f ? { ...f, capability } : f));
      setStatus(capability.detail ?? null);
    } catch (err) {
      setStatus(plainMessage(err));
    } finally {
      setChecking(false);
    }
  };
  return (
    <div className="model-facts small" data-testid="model-facts">
      <div>
        Code: <strong data-testid="model-capability">{capabilityLabel(facts?.capability ?? null)}</strong>{' '}
        <button className="link" disabled={checking} onClick={() => void check()}>
          {facts?.capability ? 'Check again' : 'Check now'}
        </button>
      </div>
      {facts && (
        <div className="muted" data-testid="model-context">
          Context: {facts.contextWindow.toLocaleString('en-US')} tokens
          {facts.serverContextLength !== null && facts.serverContextLength !== facts.contextWindow
            ? ` (the model supports ${facts.serverContextLength.toLocaleString('en-US')}; raise the cap in Settings → Model)`
            : facts.serverContextLength !== null
              ? ' (as the server reports)'
              : ' (the server does not say; set it in Settings if you know it)'}
        </div>
      )}
      {status && (
        <div className="muted" role="status">
          {status}
        </div>
      )}
    </div>
  );
}
