import type { TestProject } from 'vitest/node';
import { startChromiumBroker } from './browser';

// vitest's globalSetup (vitest.config.ts): one Chromium for the whole run, started on first use
// (browser.ts says why), stopped when the run ends.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where a test file asks for the run's Chromium (connectChromium). */
    chromiumBroker: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const broker = await startChromiumBroker();
  project.provide('chromiumBroker', broker.url);
  return () => broker.close();
}
