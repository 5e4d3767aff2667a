import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Session, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, outputFrameContentSecurityPolicy } from '../../../src-main/core/security/content-security-policy';
import { externalUrlAllowed } from '../../../src-main/electron/external-links';
import { denyAllPermissions } from '../../../src-main/electron/permissions';
import { rendererResponse } from '../../../src-main/electron/renderer-response';
import { guardWebContents } from '../../../src-main/electron/web-contents-guards';

// Issue 17, finding 12: the Electron shell never runs here, so each of its handlers is a plain function
// the shell wires, driven here with stand-ins for the objects Electron passes (its types only; the
// electron binary is never loaded). Each attack has a twin showing the stand-in would let it through.

type Listener = (event: { preventDefault(): void }, url: string) => void;
type OpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

/** A WebContents as far as the guards see it: it records its listeners and its window-open handler. */
class StandInContents {
  readonly listeners = new Map<string, Listener>();
  openHandler: OpenHandler | null = null;
  on(name: string, listener: Listener): this {
    this.listeners.set(name, listener);
    return this;
  }
  setWindowOpenHandler(handler: OpenHandler): void {
    this.openHandler = handler;
  }
  /** Fires an event as Electron would; true when a listener cancelled it (preventDefault). */
  fire(name: string, url = ''): boolean {
    let prevented = false;
    this.listeners.get(name)?.({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
  /** window.open / target=_blank: what the handler answers (Electron's default, with none, is allow). */
  open(url: string): 'allow' | 'deny' {
    return this.openHandler ? this.openHandler({ url }).action : 'allow';
  }
}

function guarded(): { contents: StandInContents; opened: string[] } {
  const contents = new StandInContents();
  const opened: string[] = [];
  guardWebContents(contents as unknown as WebContents, (url) => opened.push(url));
  return { contents, opened };
}

const REFUSED_EXTERNAL = [
  'javascript:alert(document.cookie)',
  'file:///etc/passwd',
  'file://server/share/run.exe',
  'smb://attacker.example/share',
  'ms-msdt:/id PCWDiagnostic',
  'vscode://settings',
  'slack://open',
  'search-ms:query=x',
  'data:text/html,<script>alert(1)</script>',
  'blob:app://renderer/123',
  'about:blank',
  'chrome://settings',
  'not a url',
  '',
];
const ALLOWED_EXTERNAL = ['https://example.com/docs', 'http://example.com/', 'mailto:someone@example.com'];

describe('attack: navigating the app window away, or opening windows', () => {
  it('cancels every navigation that leaves app://renderer; allowed links go to the OS browser instead', () => {
    const { contents, opened } = guarded();
    for (const url of ['app://renderer/index.html', 'app://renderer/', 'app://renderer'])
      expect(contents.fire('will-navigate', url), url).toBe(false);
    for (const url of [
      ...ALLOWED_EXTERNAL,
      ...REFUSED_EXTERNAL,
      'app://renderer.evil.example/',
      'app://other/index.html',
      'app://renderer@evil/',
    ]) {
      expect(contents.fire('will-navigate', url), url).toBe(true);
    }
    expect(opened).toEqual(ALLOWED_EXTERNAL);
  });

  it('cancels redirects out of the app and every <webview>', () => {
    const { contents } = guarded();
    expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-redirect', 'app://renderer/index.html')).toBe(false);
    expect(contents.fire('will-attach-webview')).toBe(true);
  });

  it('denies every new window; only http, https and mailto reach the OS, nothing else', () => {
    const { contents, opened } = guarded();
    for (const url of [...ALLOWED_EXTERNAL, ...REFUSED_EXTERNAL, 'app://renderer/index.html']) expect(contents.open(url), url).toBe('deny');
    expect(opened).toEqual(ALLOWED_EXTERNAL);
    for (const url of REFUSED_EXTERNAL) expect(externalUrlAllowed(url), url).toBe(false);
  });

  it('twin: an unguarded WebContents lets the same navigation, webview and window through', () => {
    const bare = new StandInContents();
    expect(bare.fire('will-navigate', 'https://evil.example/')).toBe(false);
    expect(bare.fire('will-attach-webview')).toBe(false);
    expect(bare.open('javascript:alert(1)')).toBe('allow');
  });
});

describe('attack: a page asking for permissions', () => {
  /** A Session that, like Electron's, grants whatever no handler answers. */
  class StandInSession {
    request: ((contents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void) | null = null;
    check: ((contents: unknown, permission: string, origin: string, details: unknown) => boolean) | null = null;
    device: ((details: unknown) => boolean) | null = null;
    setPermissionRequestHandler(h: StandInSession['request']): void {
      this.request = h;
    }
    setPermissionCheckHandler(h: StandInSession['check']): void {
      this.check = h;
    }
    setDevicePermissionHandler(h: StandInSession['device']): void {
      this.device = h;
    }
    asks(permission: string): boolean {
      let granted = true;
      this.request?.({}, permission, (g) => (granted = g), { requestingUrl: 'app://renderer/index.html' });
      return granted;
    }
    checks(permission: string): boolean {
      return this.check ? this.check({}, permission, 'app://renderer', {}) : true;
    }
    usesDevice(): boolean {
      return this.device ? this.device({ deviceType: 'usb', origin: 'app://renderer' }) : true;
    }
  }
  const PERMISSIONS = [
    'media',
    'notifications',
    'geolocation',
    'clipboard-read',
    'clipboard-sanitized-write',
    'midiSysex',
    'openExternal',
    'fullscreen',
    'pointerLock',
    'hid',
    'serial',
    'usb',
    'idle-detection',
    'display-capture',
  ];

  it('denies every request, every check and every device', () => {
    const session = new StandInSession();
    denyAllPermissions(session as unknown as Session);
    for (const p of PERMISSIONS) {
      expect(session.asks(p), p).toBe(false);
      expect(session.checks(p), p).toBe(false);
    }
    expect(session.usesDevice()).toBe(false);
  });

  it('twin: a session without the handlers grants them', () => {
    const session = new StandInSession();
    expect(session.asks('media')).toBe(true);
    expect(session.checks('geolocation')).toBe(true);
    expect(session.usesDevice()).toBe(true);
  });
});

describe('attack: reading files outside the renderer folder through app://', () => {
  let base: string;
  let renderer: string;
  const SECRET = 'outside the renderer folder: a secret';
  beforeAll(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'oi-app-protocol-'));
    renderer = path.join(base, 'renderer');
    mkdirSync(path.join(renderer, 'assets'), { recursive: true });
    mkdirSync(path.join(base, 'outside'));
    writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(renderer, 'output-frame.html'), '<!doctype html><title>frame</title>');
    writeFileSync(path.join(renderer, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(path.join(base, 'outside', 'secret.txt'), SECRET);
    writeFileSync(path.join(base, 'renderer-sibling.txt'), SECRET);
    symlinkSync(path.join(base, 'outside', 'secret.txt'), path.join(renderer, 'link.txt'));
    symlinkSync(path.join(base, 'outside'), path.join(renderer, 'assets', 'linkdir'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const get = async (url: string) => {
    const res = await rendererResponse(renderer, url);
    return {
      status: res.status,
      csp: res.headers.get('content-security-policy'),
      type: res.headers.get('content-type'),
      body: await res.text(),
    };
  };

  it('serves the renderer with the app policy, and the output frame with its own', async () => {
    for (const url of ['app://renderer/index.html', 'app://renderer/']) {
      const page = await get(url);
      expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', csp: contentSecurityPolicy() });
      expect(page.body).toContain('id="root"');
    }
    const frame = await get('app://renderer/output-frame.html');
    expect(frame).toMatchObject({ status: 200, csp: outputFrameContentSecurityPolicy() });
    expect(frame.csp).toContain('sandbox allow-scripts');
    expect(frame.csp).not.toBe(contentSecurityPolicy());
    expect(await get('app://renderer/assets/app.js')).toMatchObject({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      csp: contentSecurityPolicy(),
    });
  });

  it('refuses ../ (plain and encoded), absolute paths, links out, other hosts and junk', async () => {
    const abs = encodeURIComponent(path.join(base, 'outside', 'secret.txt'));
    const attempts = [
      'app://renderer/../outside/secret.txt',
      'app://renderer/..%2foutside%2fsecret.txt',
      'app://renderer/%2e%2e/outside/secret.txt',
      'app://renderer/%2e%2e%2f%2e%2e%2frenderer-sibling.txt',
      'app://renderer/assets/%2E%2E/%2E%2E/renderer-sibling.txt',
      'app://renderer/..%5c..%5crenderer-sibling.txt',
      `app://renderer/${abs}`,
      `app://renderer//${path.join(base, 'outside', 'secret.txt')}`,
      'app://renderer/link.txt',
      'app://renderer/assets/linkdir/secret.txt',
      'app://other/index.html',
      'app://renderer.evil/index.html',
      'app://renderer/%E0%A4%A',
      'app://renderer/index.html%00.txt',
      'app://renderer/assets',
      'not a url',
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect([400, 404], `${url} → ${res.status}`).toContain(res.status);
      expect(res.body, url).not.toContain('secret');
    }
  });

  it('twin: the links are real ways out — the old string check passes them and the read follows them', () => {
    // The check app-protocol.ts made before: resolve, then compare strings, then read.
    const oldCheck = (rel: string) => {
      const file = path.resolve(renderer, '.' + path.posix.normalize(rel));
      return file.startsWith(renderer + path.sep) ? file : null;
    };
    for (const rel of ['/link.txt', '/assets/linkdir/secret.txt']) {
      const file = oldCheck(rel);
      expect(file, rel).not.toBeNull();
      expect(readFileSync(file ?? '', 'utf8')).toBe(SECRET);
    }
  });
});
