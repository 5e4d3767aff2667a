import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERER_DIR } from '../support/app-under-test';

// What the window loads before it is usable (docs/ui.md#startup) carries no schema library: zod came
// back into the app's first chunk twice through one value import of a contract schema (a re-exported
// enum, a card's proposal reader), and with it 110 KB and about 90 ms of startup. The signature is
// what zod's build keeps through minification: its error class's name and its issue codes.

const ZOD = /ZodError|invalid_type/;
const assets = path.join(RENDERER_DIR, 'assets');

describe('the renderer’s first chunks', () => {
  it('hold no zod, which stays in the chunks loaded on demand', () => {
    const html = readFileSync(path.join(RENDERER_DIR, 'index.html'), 'utf8');
    const first = [...html.matchAll(/(?:src|href)="\.\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1] ?? '');
    expect(first.some((f) => f.startsWith('index-'))).toBe(true);
    expect(first.some((f) => f.startsWith('mount-'))).toBe(true);
    for (const file of first) expect(ZOD.test(readFileSync(path.join(assets, file), 'utf8')), file).toBe(false);
    // The signature finds zod where it is (Settings, the schedule card…), so its absence above means something.
    const later = readdirSync(assets).filter((f) => f.endsWith('.js') && !first.includes(f));
    expect(later.filter((f) => ZOD.test(readFileSync(path.join(assets, f), 'utf8'))).length).toBeGreaterThan(0);
  });
});
