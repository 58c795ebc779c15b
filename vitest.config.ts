import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default on 2 cores is one file at a time; the integration tests mostly wait on servers,
    // child processes and PostgreSQL, so two at once take 517 s where one took 658 s.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
