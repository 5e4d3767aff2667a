import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  clickedLink,
  htmlMessage,
  MAX_OUTPUT_FRAME_HEIGHT,
  reportedHeight,
} from '../../../src-renderer/features/cells/output-frame-messages';

// The output frame runs untrusted scripts that can post the parent anything; only a well-formed
// height may change the page.
describe('messages from the output frame', () => {
  it('takes a finite, non-negative height, rounded up and capped', () => {
    expect(reportedHeight({ type: 'oi-output-height', height: 0 })).toBe(0);
    expect(reportedHeight({ type: 'oi-output-height', height: 412.2 })).toBe(413);
    expect(reportedHeight({ type: 'oi-output-height', height: MAX_OUTPUT_FRAME_HEIGHT })).toBe(MAX_OUTPUT_FRAME_HEIGHT);
    expect(reportedHeight({ type: 'oi-output-height', height: 1e9 })).toBe(MAX_OUTPUT_FRAME_HEIGHT);
  });

  it('ignores anything else', () => {
    const refused: unknown[] = [
      null,
      undefined,
      412,
      '412',
      [412],
      {},
      { height: 412 },
      { type: 'oi-output-html', height: 412 },
      { type: 'oi-output-height', height: '412' },
      { type: 'oi-output-height', height: -1 },
      { type: 'oi-output-height', height: Number.NaN },
      { type: 'oi-output-height', height: Number.POSITIVE_INFINITY },
      { type: 'oi-output-height', height: { valueOf: () => 412 } },
    ];
    for (const data of refused) expect(reportedHeight(data), JSON.stringify(data) ?? String(data)).toBeNull();
  });

  it('hands the frame its HTML in the shape its bootstrap expects', () => {
    expect(htmlMessage('<b>x</b>')).toEqual({ type: 'oi-output-html', html: '<b>x</b>' });
    const bootstrap = readFileSync(path.resolve(import.meta.dirname, '../../../src-renderer/public/output-frame.html'), 'utf8');
    expect(bootstrap).toContain("data.type !== 'oi-output-html'");
    expect(bootstrap).toContain("type: 'oi-output-height'");
  });

  it('takes a clicked link only as an http(s) URL', () => {
    expect(clickedLink({ type: 'oi-output-link', url: 'https://plotly.com/chart-studio/' })).toBe('https://plotly.com/chart-studio/');
    expect(clickedLink({ type: 'oi-output-link', url: 'http://example.com/a b' })).toBe('http://example.com/a%20b');
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
      'app://renderer/index.html',
      '/relative',
      'not a url',
      `https://x.test/${'a'.repeat(9000)}`,
    ]) {
      expect(clickedLink({ type: 'oi-output-link', url }), url).toBeNull();
    }
    expect(clickedLink({ type: 'oi-output-height', url: 'https://x.test/' })).toBeNull();
    expect(clickedLink({ type: 'oi-output-link', url: 42 })).toBeNull();
    expect(clickedLink('https://x.test/')).toBeNull();
  });
});
