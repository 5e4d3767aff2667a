import { useState } from 'react';
import type { Settings } from '@contract';
import { SettingsPatch } from '@contract/settings';
import { display, parse, patchFor, scalarText, valueAt } from './field-values';
import type { FieldSpec } from './settings-fields';
import './toggled-number.css';

interface Props {
  field: FieldSpec;
  settings: Settings;
  /** Resolves to null when saved, else to why main refused it (shown under the field). */
  save(patch: SettingsPatch): Promise<string | null>;
}

/**
 * One setting. Selects and switches apply at once; typed values apply on Enter or leaving the field,
 * after the contract's schema accepts them — otherwise the error shows under the field.
 */
export function SettingField({ field, settings, save }: Props) {
  const stored = valueAt(settings, field.path);
  const [text, setText] = useState(display(field, stored));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // Follow changes made elsewhere (the model picker, another window) without an effect.
  const [shownStored, setShownStored] = useState(stored);
  // What a toggled number comes back with when switched on again.
  const [lastOn, setLastOn] = useState(typeof stored === 'number' ? stored : field.kind === 'toggled-number' ? field.onValue : null);
  if (shownStored !== stored) {
    setShownStored(stored);
    setText(display(field, stored));
    if (typeof stored === 'number') setLastOn(stored);
  }

  const commit = async (value: unknown) => {
    const patch = patchFor(field.path, value);
    const check = SettingsPatch.safeParse(patch);
    if (!check.success) return setError(check.error.issues[0]?.message ?? 'not a valid value');
    setError(null);
    const refused = await save(check.data);
    if (refused !== null) return setError(refused);
    setSaved(true);
    setTimeout(() => setSaved(false), 1200);
  };
  const commitText = () => {
    if (text === display(field, stored)) return setError(null);
    const parsed = parse(field, text);
    if (!parsed.ok) return setError(parsed.error);
    void commit(parsed.value);
  };

  const id = `setting-${field.id}`;
  const describedBy = [field.help && `${id}-help`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  let control;
  switch (field.kind) {
    case 'toggle':
      control = (
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={stored === true}
          onChange={(e) => void commit(e.target.checked)}
          aria-describedby={describedBy}
        />
      );
      break;
    case 'toggled-number': {
      const on = stored !== null;
      control = (
        <span className="toggled-number">
          <input
            id={id}
            type="checkbox"
            role="switch"
            checked={on}
            onChange={(e) => void commit(e.target.checked ? lastOn : null)}
            aria-describedby={describedBy}
          />
          <label htmlFor={`${id}-value`} className="small">
            {field.valueLabel}
          </label>
          <span className="input-with-unit">
            <input
              id={`${id}-value`}
              type="text"
              inputMode="numeric"
              value={text}
              disabled={!on}
              placeholder="off"
              onChange={(e) => setText(e.target.value)}
              onBlur={commitText}
              onKeyDown={(e) => e.key === 'Enter' && commitText()}
              aria-invalid={error !== null}
              aria-describedby={describedBy}
            />
            {field.unit && <span className="muted small">{field.unit}</span>}
          </span>
        </span>
      );
      break;
    }
    case 'select':
      // An empty option stands for null ("the model's default").
      control = (
        <select
          id={id}
          value={stored === null ? '' : scalarText(stored)}
          onChange={(e) => void commit(e.target.value === '' ? null : e.target.value)}
          aria-describedby={describedBy}
        >
          {field.options.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      );
      break;
    case 'textarea':
    case 'env':
    case 'json':
    case 'lines':
      control = (
        <textarea
          id={id}
          value={text}
          placeholder={field.kind === 'lines' || field.kind === 'json' ? field.placeholder : undefined}
          rows={field.kind === 'textarea' || field.kind === 'json' ? 4 : 3}
          spellCheck={field.kind === 'textarea'}
          onChange={(e) => setText(e.target.value)}
          onBlur={commitText}
          aria-invalid={error !== null}
          aria-describedby={describedBy}
        />
      );
      break;
    default:
      control = (
        <span className="input-with-unit">
          <input
            id={id}
            type="text"
            inputMode={field.kind === 'number' ? 'decimal' : undefined}
            value={text}
            placeholder={field.placeholder}
            onChange={(e) => setText(e.target.value)}
            onBlur={commitText}
            onKeyDown={(e) => e.key === 'Enter' && commitText()}
            aria-invalid={error !== null}
            aria-describedby={describedBy}
          />
          {field.kind === 'number' && field.unit && <span className="muted small">{field.unit}</span>}
        </span>
      );
  }
  return (
    <div className={`setting${field.kind === 'toggle' ? ' setting-toggle' : ''}`} data-testid={id}>
      <label htmlFor={id}>{field.label}</label>
      <div className="setting-control">
        {control}
        {saved && (
          <span className="saved small" role="status">
            Saved
          </span>
        )}
      </div>
      {field.help && (
        <p id={`${id}-help`} className="muted small help">
          {field.help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
