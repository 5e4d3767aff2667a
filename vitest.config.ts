import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@contract': fileURLToPath(new URL('./src-preload/contract/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Real processes and servers: give them room, and keep the 2-core machines from thrashing.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
