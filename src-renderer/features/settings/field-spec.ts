import type { ProviderKind, Settings } from '@contract';

// What a setting's description holds (settings-fields.ts lists them): where its value lives, how it is
// shown, and for which providers.

export type FieldPath =
  | { group: null; key: Exclude<keyof Settings, 'version' | 'exec' | 'sandbox'> }
  | { group: 'exec'; key: keyof Settings['exec'] }
  | { group: 'sandbox'; key: keyof Settings['sandbox'] };

interface Base {
  id: string;
  label: string;
  help?: string;
  path: FieldPath;
  /** Shown only while one of these is the chosen provider (a setting no other provider reads). */
  providers?: ProviderKind[];
}

export type FieldSpec =
  | (Base & { kind: 'select'; options: Array<[string, string]> })
  | (Base & { kind: 'toggle' })
  | (Base & { kind: 'text'; nullable: boolean; placeholder?: string })
  | (Base & { kind: 'textarea' })
  /** A list of strings, one per line (blank lines dropped). */
  | (Base & { kind: 'lines'; placeholder?: string })
  | (Base & { kind: 'number'; nullable: boolean; unit?: string; factor?: number; placeholder?: string })
  /** A number that may be off (null): a switch (the field's label) and the number beside it, with its own label. */
  | (Base & { kind: 'toggled-number'; valueLabel: string; unit?: string; onValue: number })
  | (Base & { kind: 'env' })
  /** A JSON value typed as text (the hooks); the contract's schema checks its shape. */
  | (Base & { kind: 'json'; placeholder?: string });

export interface Section {
  title: string;
  fields: FieldSpec[];
}

/** Whether a field applies to the provider now chosen (fields for one provider only are hidden for others). */
export function appliesTo(field: FieldSpec, provider: ProviderKind): boolean {
  return !field.providers || field.providers.includes(provider);
}
