import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  OUTPUT_FRAME_PATH,
  outputFrameContentSecurityPolicy,
  outputFrameMetaPolicy,
  policyForPath,
} from '../../../src-main/core/security/content-security-policy';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** directive name → its sources, as a browser reads a policy. */
function parse(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

function metaPolicyOf(file: string): string {
  const html = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const match = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html);
  if (!match?.[1]) throw new Error(`${file} has no CSP meta tag`);
  return match[1];
}

describe('the app page policy', () => {
  const app = parse(contentSecurityPolicy(['ws://127.0.0.1:1234']));

  it('is unchanged: own scripts only, no eval, no remote content, never framed', () => {
    expect(contentSecurityPolicy(['ws://127.0.0.1:1234'])).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; " +
        "connect-src 'self' ws://127.0.0.1:1234; frame-src 'self' blob: data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(app.get('script-src')).toEqual(["'self'"]);
    expect(app.get('frame-ancestors')).toEqual(["'none'"]);
    for (const sources of app.values()) {
      expect(sources).not.toContain("'unsafe-eval'");
      expect(sources).not.toContain('https:');
    }
  });

  it('lets the page frame its own output frame page', () => {
    expect(app.get('frame-src')).toContain("'self'");
  });
});

describe('the output frame policy', () => {
  const frame = parse(outputFrameContentSecurityPolicy());

  it('runs inline, eval and https: scripts, in an opaque origin, with no network and nothing from our server', () => {
    expect(frame.get('default-src')).toEqual(["'none'"]);
    expect(frame.get('script-src')).toEqual(["'unsafe-inline'", "'unsafe-eval'", 'https:']);
    expect(frame.get('style-src')).toEqual(["'unsafe-inline'", 'https:']);
    expect(frame.get('img-src')).toEqual(['data:', 'blob:', 'https:']);
    expect(frame.get('font-src')).toEqual(['data:', 'https:']);
    expect(frame.get('connect-src')).toEqual(["'none'"]);
    expect(frame.get('object-src')).toEqual(["'none'"]);
    expect(frame.get('frame-ancestors')).toEqual(["'self'"]);
    // allow-scripts only: no allow-same-origin, popups, top navigation, forms or modals.
    expect(frame.get('sandbox')).toEqual(['allow-scripts']);
    // No child frames (a nested data: or https: page would not be bound by connect-src).
    expect(frame.has('frame-src')).toBe(false);
    expect(frame.has('child-src')).toBe(false);
    for (const [name, sources] of frame) {
      if (name !== 'frame-ancestors') expect(sources, name).not.toContain("'self'");
      expect(sources, name).not.toContain('*');
      expect(sources, name).not.toContain('http:');
    }
  });

  it('is the meta tag in the frame file, minus what only a header can carry', () => {
    const meta = metaPolicyOf('src-renderer/public/output-frame.html');
    expect(meta).toBe(outputFrameMetaPolicy());
    expect(parse(meta).has('sandbox')).toBe(false);
    expect(parse(meta).has('frame-ancestors')).toBe(false);
    const header = parse(outputFrameContentSecurityPolicy());
    for (const [name, sources] of parse(meta)) expect(header.get(name), name).toEqual(sources);
  });
});

describe('choosing the policy by path', () => {
  it('gives the frame page its own policy and every other path the app policy', () => {
    expect(OUTPUT_FRAME_PATH).toBe('/output-frame.html');
    expect(policyForPath('/output-frame.html')).toBe(outputFrameContentSecurityPolicy());
    for (const other of [
      '/',
      '/index.html',
      '/assets/index.js',
      '/output-frame.html/',
      '/output-frame.htm',
      '/x/output-frame.html',
      '/OUTPUT-FRAME.HTML',
    ]) {
      expect(policyForPath(other, ['ws://h:1']), other).toBe(contentSecurityPolicy(['ws://h:1']));
    }
  });
});
