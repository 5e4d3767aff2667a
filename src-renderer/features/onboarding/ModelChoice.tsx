import { useState } from 'react';

/** One way to start: a provider or server, its models, and the button that picks it. */
export function ModelChoice({
  title,
  detail,
  models,
  action,
  onPick,
}: {
  title: string;
  detail: string;
  models: string[];
  action: string;
  onPick(model: string): void;
}) {
  const [model, setModel] = useState(models[0] ?? '');
  return (
    <div className="choice" role="group" aria-label={title} data-testid="model-choice">
      <div className="choice-head">
        <strong>{title}</strong>
        <span className="muted small">{detail}</span>
      </div>
      <div className="row">
        {models.length > 0 ? (
          <select aria-label={`${title} model`} value={model} onChange={(e) => setModel(e.target.value)}>
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        ) : (
          <input aria-label={`${title} model`} placeholder="model name" value={model} onChange={(e) => setModel(e.target.value)} />
        )}
        <button className="primary" disabled={!model.trim()} onClick={() => onPick(model.trim())}>
          {action}
        </button>
      </div>
    </div>
  );
}
