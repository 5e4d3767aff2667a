import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

// playwright-core has no test runner matchers; these poll the real page the same way, with a backing
// off interval: every poll is two calls into Chromium, and at a steady 50 ms a wait cost about 0.1
// CPU-seconds a second (measured), on a machine where CPU is what the tests are short of. The first
// polls come quickly for a page that is about to change; a longer wait settles at 250 ms.

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const FIRST_MS = 50;
const MAX_MS = 250;

/**
 * Reads until `check` passes on what was read, or throws the last failure once `timeout` has passed.
 * `read` is given the time left, so a read that waits (an element gone between two calls) ends in time.
 */
async function settle<T>(read: (left: number) => Promise<T>, check: (value: T) => void, timeout: number): Promise<void> {
  const deadline = Date.now() + timeout;
  for (let wait = FIRST_MS; ; wait = Math.min(wait * 2, MAX_MS)) {
    try {
      check(await read(Math.max(1, deadline - Date.now())));
      return;
    } catch (err) {
      if (Date.now() >= deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(0, deadline - Date.now()))));
  }
}

export async function expectText(locator: Locator, text: string | RegExp, timeout = 15_000): Promise<void> {
  const pattern = typeof text === 'string' ? new RegExp(escape(text)) : text;
  await settle(
    async (left) => ((await locator.count()) > 0 ? ((await locator.textContent({ timeout: left })) ?? '') : ''),
    (value) => expect(value).toMatch(pattern),
    timeout,
  );
}

export async function expectAttribute(locator: Locator, name: string, value: string, timeout = 15_000): Promise<void> {
  await settle(
    async (left) => ((await locator.count()) > 0 ? await locator.getAttribute(name, { timeout: left }) : null),
    (got) => expect(got).toBe(value),
    timeout,
  );
}
