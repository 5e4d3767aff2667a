import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

// playwright-core has no test runner matchers; these poll the real page the same way.

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function expectText(locator: Locator, text: string | RegExp, timeout = 15_000): Promise<void> {
  const pattern = typeof text === 'string' ? new RegExp(escape(text)) : text;
  await expect
    .poll(async () => ((await locator.count()) > 0 ? ((await locator.textContent()) ?? '') : ''), { timeout, interval: 50 })
    .toMatch(pattern);
}

export async function expectAttribute(locator: Locator, name: string, value: string, timeout = 15_000): Promise<void> {
  await expect
    .poll(async () => ((await locator.count()) > 0 ? await locator.getAttribute(name) : null), { timeout, interval: 50 })
    .toBe(value);
}
