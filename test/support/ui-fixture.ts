import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { connectChromium } from './browser';
import { assertNoPageProblems } from './page-problems';
import { newConversation, openApp, startUiApp, type UiApp, type UiAppOptions } from './ui-harness';
import { handOver, settingsOf, shotOfFailure, whyNotShared } from './ui-shared-app';

// The setup every UI test shares, registered as vitest hooks in the calling describe: a connection to
// the run's Chromium for the describe (browser.ts), the app and a page on it for each test (or once for
// all of them), closed afterwards.

/** The app's options, or a function that makes them when the app starts (from what other hooks set up). */
export type UiAppSetup = UiAppOptions | (() => UiAppOptions | Promise<UiAppOptions>);

export interface UiFixtureOptions {
  /** Click "New conversation" once the page has loaded. */
  newConversation?: boolean;
  /** Default: openApp's. */
  viewport?: { width: number; height: number };
  /** Runs on each page before it loads (e.g. page.routeWebSocket, which must be in place before the socket opens). */
  beforeGoto?: (page: Page) => Promise<void>;
  /**
   * When the hooks start the app: before each test (default); once for the whole describe, whose tests
   * then share the app and the page in order; shared, where each test gets a new conversation on the
   * page the test before left as it found it, or an app of its own (ui-shared-app.ts says when); or
   * never, each test calling start() itself.
   */
  start?: 'each' | 'once' | 'shared' | 'in-test';
  /** false: start the app without a page, for a test that opens it itself (open()). */
  openPage?: boolean;
}

export interface UiFixture {
  readonly browser: Browser;
  readonly aut: UiApp;
  readonly page: Page;
  /** Every WebSocket frame the page received. */
  readonly frames: string[];
  /** Starts the app (with the describe's setup unless given options) and, unless openPage is false, opens the page. */
  start(options?: UiAppOptions): Promise<void>;
  open(): Promise<void>;
  /** A page problem this test provokes on purpose (and checks the effect of itself): not a failure. */
  expectProblem(pattern: RegExp): void;
  /** Closes the page and the app; the hooks call it after each test (or after all of them). */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export function useChromium(): { readonly browser: Browser } {
  let chromium: Awaited<ReturnType<typeof connectChromium>> | undefined;
  beforeAll(async () => {
    chromium = await connectChromium(inject('chromiumBroker'));
  });
  afterAll(async () => chromium?.close());
  return {
    get browser() {
      if (!chromium) throw new Error('Chromium is not running: use the fixture inside a describe');
      return chromium.browser;
    },
  };
}

export function useUiApp(setup: UiAppSetup = {}, options: UiFixtureOptions = {}): UiFixture {
  const chromium = useChromium();
  let aut: UiApp | null = null;
  let opened: { page: Page; frames: string[]; problems: string[] } | null = null;
  let expected: RegExp[] = [];
  const fixture: UiFixture = {
    get browser() {
      return chromium.browser;
    },
    get aut() {
      if (!aut) throw new Error('the app has not started');
      return aut;
    },
    get page() {
      if (!opened) throw new Error('no page is open');
      return opened.page;
    },
    get frames() {
      if (!opened) throw new Error('no page is open');
      return opened.frames;
    },
    async start(appOptions) {
      aut = await startUiApp(appOptions ?? (typeof setup === 'function' ? await setup() : setup));
      if (options.openPage !== false) await fixture.open();
    },
    async open() {
      const earlier = opened?.problems ?? [];
      opened = await openApp(chromium.browser, fixture.aut, options.viewport, options.beforeGoto);
      opened.problems.unshift(...earlier);
      if (options.newConversation) await newConversation(opened.page);
    },
    // A folder passed in for a restart is the fixture's too: it goes unless the test keeps it.
    // A page error or CSP violation fails the test that closes the page (the hooks' close after it).
    expectProblem(pattern) {
      expected.push(pattern);
    },
    async close({ keepData = false } = {}) {
      const problems = (opened?.problems ?? []).filter((p) => !expected.some((e) => e.test(p)));
      expected = [];
      await opened?.page.close();
      opened = null;
      await aut?.close({ keepData });
      aut = null;
      assertNoPageProblems(problems);
    },
  };
  const when = options.start ?? 'each';
  if (when === 'shared') {
    let baseline: { settings: string; viewport: { width: number; height: number } | null } | null = null;
    beforeEach(async () => {
      if (aut && opened) {
        counts.handedOver++;
        return handOver(aut, opened.page, opened.frames, baseline?.viewport ?? null);
      }
      counts.started++;
      await fixture.start();
      baseline = { settings: settingsOf(fixture.aut), viewport: fixture.page.viewportSize() };
    });
    const counts = { started: 0, handedOver: 0, why: [] as string[] };
    afterEach(async ({ task }) => {
      const failed = task.result?.state === 'fail';
      if (failed && opened) await shotOfFailure(opened.page, task.name);
      const problems = (opened?.problems ?? []).filter((p) => !expected.some((e) => e.test(p)));
      const why =
        failed || problems.length > 0 || !aut || !opened || !baseline ? 'failed or closed' : await whyNotShared(aut, opened.page, baseline);
      if (why !== null) {
        counts.why.push(why);
        return fixture.close();
      }
      // Kept for the next test: this one's page problems are its own.
      opened?.problems.splice(0);
      expected = [];
      assertNoPageProblems(problems);
    });
    afterAll(async () => {
      // OI_UI_SHARED_LOG=1: how often the tests shared (CONTRIBUTING.md's figures were counted so).
      if (process.env.OI_UI_SHARED_LOG === '1') {
        console.error(
          `ui fixture: ${counts.started} app(s) started, ${counts.handedOver} handed over; not shared: ${counts.why.join(', ') || 'none'}`,
        );
      }
      await fixture.close();
    });
    return fixture;
  }
  if (when === 'once') {
    // A file-wide app: vitest gives afterAll no test context (destructuring one is an error), so no
    // failure picture here; each failed test's page is pictured by the per-test modes.
    beforeAll(() => fixture.start());
    afterAll(() => fixture.close());
    return fixture;
  }
  if (when !== 'in-test') beforeEach(() => fixture.start());
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && opened) await shotOfFailure(opened.page, task.name);
    await fixture.close();
  });
  return fixture;
}
