import { useState } from 'react';
import type { KeyProvider, ModelChoice } from '@contract';
import { KEY_SERVICES, keyService } from '@contract/key-services';
import { useApp } from '../../state/app-store';
import { keyStorageSentence } from '../common/key-storage';
import { aKeyFor, DEFAULT_MODEL, KEY_LABEL, KEY_PAGES } from '../common/providers';
import { ChoiceForm } from './ChoiceForm';

type KeyWay = Exclude<KeyProvider, 'openai-compatible'>;
const WAYS: KeyWay[] = ['openai', 'anthropic', ...KEY_SERVICES.map((s) => s.id)];

function choiceFor(way: KeyWay, model: string): ModelChoice {
  const service = keyService(way);
  if (service) return { provider: 'openai-compatible', model, baseUrl: service.baseUrl };
  return { provider: way as 'openai' | 'anthropic', model, baseUrl: null };
}

function defaultModel(way: KeyWay): string {
  return keyService(way)?.defaultModel ?? DEFAULT_MODEL[way as 'openai' | 'anthropic'] ?? '';
}

/**
 * An API key for a hosted provider: which one, the key, the model to start with (its usual one,
 * editable). "Save and start" is the whole step; nothing is sent to the provider before the first message.
 */
export function KeyChoice() {
  const storage = useApp((s) => s.secretStorage);
  const [way, setWay] = useState<KeyWay>('openai');
  const [key, setKey] = useState('');
  const [model, setModel] = useState(defaultModel('openai'));
  const ready = key.trim() !== '' && model.trim() !== '';
  return (
    <ChoiceForm
      title="Use an API key"
      detail="OpenAI, Anthropic, OpenRouter, Groq, Mistral, DeepSeek"
      testId="key-choice"
      choice={ready ? choiceFor(way, model.trim()) : null}
      keyToSave={{ provider: way, value: key }}
    >
      <div className="row">
        <select
          aria-label="Provider for the key"
          value={way}
          onChange={(e) => {
            const next = e.target.value as KeyWay;
            setWay(next);
            setModel(defaultModel(next));
          }}
        >
          {WAYS.map((w) => (
            <option key={w} value={w}>
              {KEY_LABEL[w]}
            </option>
          ))}
        </select>
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          aria-label="API key"
          placeholder="Paste the key"
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
      </div>
      <div className="row">
        <label className="inline-label small muted" htmlFor="first-run-key-model">
          Model
        </label>
        <input id="first-run-key-model" aria-label="Model for the key" value={model} onChange={(e) => setModel(e.target.value)} />
        <button type="submit" className="primary" disabled={!ready}>
          Save key and start
        </button>
      </div>
      <p className="small muted" data-testid="key-storage">
        {keyStorageSentence(storage)}{' '}
        <a href={KEY_PAGES[way]} target="_blank" rel="noopener noreferrer">
          Get {aKeyFor(way)}
        </a>
      </p>
    </ChoiceForm>
  );
}
