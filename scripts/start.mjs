#!/usr/bin/env node
// `npm start`: serves the built dashboard with `next start`. Honours PORT (default 3000),
// DATABASE_URL (default file:./data/buildcop.db) and BUILDCOP_CONFIG (path of the config file;
// default ./buildcop.config.json when present). Run `npm run build` first.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nextServerEnv } from './nextServer.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT || '3000';
if (!/^\d+$/.test(port) || Number(port) > 65535) {
  console.error(`start: invalid PORT ${JSON.stringify(port)}`);
  process.exit(2);
}
if (!fs.existsSync(path.join(root, '.next/BUILD_ID'))) {
  console.error('start: no production build in .next; run `npm run build` first (or `npm run demo` for the sample world)');
  process.exit(1);
}
const env = nextServerEnv(process.env);
// Relative paths mean relative to where `npm start` was run; the server runs from the project root.
const cwd = process.env.INIT_CWD || process.cwd();
if (env.BUILDCOP_CONFIG) env.BUILDCOP_CONFIG = path.resolve(cwd, env.BUILDCOP_CONFIG);
if (env.DATABASE_URL?.startsWith('file:') && !env.DATABASE_URL.startsWith('file:/')) {
  env.DATABASE_URL = `file:${path.resolve(cwd, env.DATABASE_URL.slice(5))}`;
}
console.error(`start: http://localhost:${port}/  database ${env.DATABASE_URL ?? 'file:./data/buildcop.db'}${env.BUILDCOP_CONFIG ? `, config ${env.BUILDCOP_CONFIG}` : ''}`);
const child = spawn(path.join(root, 'node_modules/.bin/next'), ['start', '-p', port], { cwd: root, env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
