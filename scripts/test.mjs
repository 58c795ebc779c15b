#!/usr/bin/env node
// `npm test`: unit and integration tests (SQLite, and PostgreSQL when a server can be had), then
// the production build and the browser tests in Chromium. Prints what did not run and why.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const t0 = Date.now();
const step = (name, cmd, args, extraEnv = {}) => {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (r.status !== 0) {
    console.error(`\n${name} failed (exit ${r.status ?? r.signal}) after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    process.exit(r.status ?? 1);
  }
};

// a server found running (a developer's, between runs) is left running at the end
const pgServer = path.join(root, 'scripts/pg-test-server.sh');
let startedPg = false;
if (!env.BUILDCOP_TEST_PG_URL) {
  try {
    const wasRunning = spawnSync(pgServer, ['status'], { stdio: 'ignore' }).status === 0;
    env.BUILDCOP_TEST_PG_URL = execFileSync(pgServer, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    startedPg = !wasRunning;
    console.log(`PostgreSQL for the tests: ${env.BUILDCOP_TEST_PG_URL}`);
  } catch (e) {
    console.warn(`[postgres] the PostgreSQL tests will not run: ${String(e.stderr || e.message).trim()}`);
  }
}
try {
  step('unit and integration tests', path.join(root, 'node_modules/.bin/vitest'), ['run']);
  step('production build', path.join(root, 'node_modules/.bin/next'), ['build']);
  step('browser tests', path.join(root, 'node_modules/.bin/vitest'), ['run', '--config', 'vitest.e2e.config.ts']);
} finally {
  if (startedPg) spawnSync(pgServer, ['stop'], { stdio: 'ignore' });
}
console.log(`\nall tests passed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
