import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOT_PNG_BASE64, displayedData, useHarness } from '../../support/exec-harness';
import { installed } from '../../support/installed';

// The `display` helper each runner gives code (R's display(), oi_display.rb) behaves the same in each:
// one table says how to call it in each language, and one suite holds them all to the same outputs.
// What one language does beyond this (R's print() of a rich value, Ruby's image sizes and
// to_mimebundle) stays in that language's own tests (r-session.test.ts, ruby-session.test.ts).

const IMAGE = { 'image/png': DOT_PNG_BASE64, 'text/plain': '<image/png, 70 bytes>' };
/** What every language shows for the calls of COMMON_CALLS that follow its image calls. */
const COMMON_SHOWN = [
  { 'text/html': '<b>bold</b>', 'text/plain': '<b>bold</b>' },
  { 'text/html': '<i>it</i>', 'text/plain': '<i>it</i>' },
  { 'text/markdown': '# Title', 'text/plain': '# Title' },
];

interface DisplayLanguage {
  language: string;
  available: boolean;
  /**
   * Calls display() on: the workspace's dot.png (in each of the language's ways), its bytes, HTML("<b>bold</b>"),
   * "<i>it</i>" as text/html, Markdown("# Title"), then plain values.
   */
  displays: string[];
  /** What those calls show, after the image and before the plain values. */
  images: Array<Record<string, string>>;
  plain: Array<Record<string, string>>;
  /** Code whose last value is HTML("<p>last</p>"). */
  lastHtml: string;
  /** A display() of a file that is not there, and the error it fails the cell with. */
  unreadable: { code: string; error: Record<string, string> };
  /** 1 + 1, as the model reads its value: the session lived on. */
  two: string;
}

const LANGUAGES: DisplayLanguage[] = [
  {
    language: 'r',
    available: installed('Rscript'),
    displays: [
      'display("dot.png")',
      'display(readBin("dot.png", "raw", 1000))',
      'display(HTML("<b>bold</b>"))',
      'display("<i>it</i>", mime = "text/html")',
      'display(Markdown("# Title"))',
      'display(1:3)',
      'display("plain text")',
    ],
    images: [IMAGE, IMAGE],
    plain: [{ 'text/plain': '[1] 1 2 3' }, { 'text/plain': 'plain text' }],
    lastHtml: 'HTML("<p>last</p>")',
    unreadable: {
      code: 'display("missing.png", mime = "image/png")',
      error: { evalue: 'display(): give raw bytes or a file path for image/png' },
    },
    two: '[1] 2',
  },
  {
    language: 'ruby',
    available: installed('ruby'),
    displays: [
      'display(Image("dot.png"))',
      'display(File.binread("dot.png"))',
      'display("dot.png", mime: "image/png")',
      'display(HTML("<b>bold</b>"))',
      'display("<i>it</i>", mime: "text/html")',
      'display(Markdown("# Title"))',
      'display(42, "plain text")',
    ],
    images: [{ ...IMAGE, 'text/plain': '<Image image/png, 70 bytes>' }, IMAGE, IMAGE],
    plain: [{ 'text/plain': '42' }, { 'text/plain': 'plain text' }],
    lastHtml: 'HTML("<p>last</p>")',
    unreadable: { code: 'Image("missing.png")', error: { ename: 'Errno::ENOENT' } },
    two: '2',
  },
];

describe.each(LANGUAGES.filter((l) => l.available))('display() in $language', (l) => {
  const h = useHarness();
  beforeAll(async () => {
    await writeFile(join(h.workspace, 'dot.png'), Buffer.from(DOT_PNG_BASE64, 'base64'));
  });

  it('displays a PNG file, PNG bytes, HTML, Markdown and plain values as display_data', async () => {
    const result = await h.run(l.language, l.displays.join('\n'));
    expect(result.status, result.forModel).toBe('done');
    expect(result.outputs.every((o) => o.output_type === 'display_data')).toBe(true);
    expect(displayedData(result)).toEqual([...l.images, ...COMMON_SHOWN, ...l.plain]);
    // The model is told an image was shown, as for Python's plots.
    expect(result.forModel).toContain('image/png');
  });

  it('shows a rich last value as a rich execute_result', async () => {
    const last = await h.run(l.language, l.lastHtml);
    expect(last.outputs).toEqual([
      {
        output_type: 'execute_result',
        execution_count: last.executionCount,
        data: { 'text/html': '<p>last</p>', 'text/plain': '<p>last</p>' },
        metadata: {},
      },
    ]);
  });

  it('fails the cell, not the session, when display() cannot read what it is given', async () => {
    const result = await h.run(l.language, l.unreadable.code);
    expect(result.status).toBe('failed');
    expect(result.outputs.find((o) => o.output_type === 'error')).toMatchObject(l.unreadable.error);
    expect((await h.run(l.language, '1 + 1')).forModel).toBe(l.two);
  });
});
