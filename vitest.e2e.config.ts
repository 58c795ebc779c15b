// Browser and API tests against the built dashboard (`npm test` runs `next build` first).
// e2e/support/globalSetup.ts ingests the sample world and starts one `next start` for all files.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // one server and one Chromium at a time on a 2-core machine
    fileParallelism: false,
    reporters: ['default'],
  },
});
