import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/security.md and docs/sandbox.md name, for each claim, the test that holds it:
//
//   `test/security/attacks/unix-sockets.test.ts` › *with the network off, a sandboxed cell reaches none of them*
//
// (several titles after one file are separated by `;`). This test keeps those names true: every
// file named exists, every title named is the title of a test (or describe block) in that file, and
// every other test path the docs mention exists. A test renamed or removed fails here, not silently
// in a document.

const REPO = resolve(import.meta.dirname, '../../..');
const DOCS = ['docs/security.md', 'docs/sandbox.md', 'docs/schedules.md'];
/** This file, which the docs name as the checker rather than as a claim's holder. */
const SELF = 'test/unit/docs/doc-test-references.test.ts';

interface TestReference {
  doc: string;
  file: string;
  title: string;
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Every `file` › *title*; *title* in a document (titles may wrap across lines). */
function referencesIn(doc: string, text: string): TestReference[] {
  const found: TestReference[] = [];
  const head = /`(test\/[^`\s]+\.test\.ts)`\s*›\s*/g;
  for (let m = head.exec(text); m; m = head.exec(text)) {
    const file = m[1] ?? '';
    let at = head.lastIndex;
    for (;;) {
      const title = /^\*([^*]+)\*/.exec(text.slice(at));
      if (!title) break;
      found.push({ doc, file, title: squash(title[1] ?? '') });
      at += title[0].length;
      const more = /^\s*;\s*/.exec(text.slice(at));
      if (!more) break;
      at += more[0].length;
    }
    if (at === head.lastIndex) throw new Error(`${doc}: \`${file}\` › is not followed by a *test title*`);
  }
  return found;
}

/** The titles of it/test/describe calls in a test file, unescaped, whitespace squashed. */
function titlesIn(source: string): Set<string> {
  const titles = new Set<string>();
  const call = /\b(?:it|test|describe)(?:\.(?:skipIf|runIf|each)\([^)]*\)|\.only|\.concurrent)?\(\s*(['"`])((?:\\.|(?!\1)[\s\S])*?)\1/g;
  for (let m = call.exec(source); m; m = call.exec(source)) titles.add(squash((m[2] ?? '').replace(/\\(.)/g, '$1')));
  return titles;
}

/** Every test path a document mentions in backticks (files and folders under test/). */
function pathsIn(text: string): string[] {
  return [...text.matchAll(/`(test\/[^`\s]*)`/g)].map((m) => m[1] ?? '').filter((p) => /\.test\.ts$|\/$|\.ts$/.test(p));
}

describe('the security docs name tests that exist', () => {
  it('parses references, several titles per file, wrapped titles', () => {
    const text = 'Held by `test/a.test.ts` › *first one*; *second\n  one* and `test/b.test.ts` › *third*.';
    expect(referencesIn('x.md', text)).toEqual([
      { doc: 'x.md', file: 'test/a.test.ts', title: 'first one' },
      { doc: 'x.md', file: 'test/a.test.ts', title: 'second one' },
      { doc: 'x.md', file: 'test/b.test.ts', title: 'third' },
    ]);
    expect(() => referencesIn('x.md', '`test/a.test.ts` › no title')).toThrow(/not followed by a \*test title\*/);
    expect(
      titlesIn(
        `describe('outer', () => {\n it("has \\"quotes\\"", () => {});\n it.skipIf(x)('skipped  title', () => {}); it(\n 'it\\'s', () => {}) })`,
      ),
    ).toEqual(new Set(['outer', 'has "quotes"', 'skipped title', "it's"]));
  });

  for (const doc of DOCS) {
    const text = readFileSync(join(REPO, doc), 'utf8');

    it(`${doc}: every named test title is a test in the named file`, () => {
      const references = referencesIn(doc, text);
      expect(references.length).toBeGreaterThan(10);
      const missing: string[] = [];
      for (const { file, title } of references) {
        const path = join(REPO, file);
        if (!existsSync(path)) {
          missing.push(`${file}: no such file`);
          continue;
        }
        if (!titlesIn(readFileSync(path, 'utf8')).has(title)) missing.push(`${file}: no test titled "${title}"`);
      }
      expect(missing).toEqual([]);
    });

    it(`${doc}: every test file it mentions is named with the titles it holds`, () => {
      // A file named without a title says nothing about which test holds the claim.
      const bare = [...text.matchAll(/`(test\/[^`\s]+\.test\.ts)`(?!\s*›)/g)].map((m) => m[1]).filter((f) => f !== SELF);
      expect(bare).toEqual([]);
    });

    it(`${doc}: every test path it mentions exists`, () => {
      const missing = pathsIn(text).filter(
        (p) => !existsSync(join(REPO, p)) || (p.endsWith('/') && !statSync(join(REPO, p)).isDirectory()),
      );
      expect(missing).toEqual([]);
    });
  }
});
