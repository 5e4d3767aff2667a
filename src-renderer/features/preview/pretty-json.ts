// Apart from table-data.ts, so the preview panel need not load papaparse to show a JSON file.

/** JSON shown indented when it parses; otherwise null (it is shown as it is). */
export function prettyJson(text: string, cut: boolean): string | null {
  if (cut) return null;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}
