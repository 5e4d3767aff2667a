import { SECTIONS, type FieldSpec } from '../../src-renderer/features/settings/settings-fields';

/** The settings screen's field `id`, from the same table the screen draws. */
export function settingsField(id: string): FieldSpec {
  const f = SECTIONS.flatMap((s) => s.fields).find((x) => x.id === id);
  if (!f) throw new Error(`no field ${id}`);
  return f;
}
