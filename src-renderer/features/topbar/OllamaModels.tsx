import { useEffect, useState } from 'react';
import { bridge } from '../../bridge/bridge';
import { plainMessage } from '../../state/plain-error';

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value >= 10 || unit === 0 ? 0 : 1)} ${units[unit]}`;
}

interface Props {
  baseUrl: string | null;
  model: string;
  onPick(model: string): void;
}

/**
 * Ollama's installed models with their sizes, and pulling the typed model when it is not installed —
 * after the user confirms, since a model is gigabytes. Progress comes as `ollama.pull-progress` events.
 */
export function OllamaModels({ baseUrl, model, onPick }: Props) {
  const [installed, setInstalled] = useState<Array<{ name: string; sizeBytes: number | null }> | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ completed: number; total: number } | null>(null);
  const [pulling, setPulling] = useState(false);
  const [listed, setListed] = useState(0);
  const list = () => setListed((n) => n + 1);
  useEffect(() => {
    let live = true;
    // Listed when shown, when the server changes and after a pull.
    bridge['ollama.list']({ baseUrl })
      .then(({ models }) => live && (setInstalled(models), setListError(null)))
      .catch((err: unknown) => live && setListError(plainMessage(err)));
    return () => {
      live = false;
    };
  }, [baseUrl, listed]);
  useEffect(
    () =>
      bridge.on('ollama.pull-progress', (p) => {
        if (p.model !== model) return;
        setStatus(p.status);
        setProgress(p.total ? { completed: p.completed ?? 0, total: p.total } : null);
      }),
    [model],
  );
  const name = model.trim();
  const missing = installed !== null && name !== '' && !installed.some((m) => m.name === name || m.name === `${name}:latest`);
  const pull = async () => {
    if (!window.confirm(`Pull ${name} into Ollama? It downloads the whole model, often several gigabytes.`)) return;
    setPulling(true);
    try {
      await bridge['ollama.pull']({ baseUrl, model: name });
      setStatus(`${name} is ready`);
      setProgress(null);
      list();
    } catch (err) {
      setStatus(plainMessage(err));
    } finally {
      setPulling(false);
    }
  };
  return (
    <div className="ollama-models small" data-testid="ollama-models">
      {installed && installed.length > 0 && (
        <ul className="model-list" aria-label="Installed Ollama models">
          {installed.map((m) => (
            <li key={m.name}>
              <button className={m.name === name ? 'link active' : 'link'} onClick={() => onPick(m.name)}>
                {m.name} <span className="muted">{formatBytes(m.sizeBytes)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {missing && (
        <div className="row">
          <span>{name} is not installed in Ollama.</span>
          <button disabled={pulling} onClick={() => void pull()}>
            Pull {name}…
          </button>
        </div>
      )}
      {progress && <progress max={progress.total} value={progress.completed} aria-label={`Pulling ${name}`} />}
      {(status ?? listError) && (
        <div className="muted" role="status" data-testid="ollama-status">
          {status ?? listError}
        </div>
      )}
    </div>
  );
}
