#!/usr/bin/env node
// The `buildcop` command: loads the TypeScript CLI through tsx (a runtime dependency).
import { register } from 'tsx/esm/api';

register();
// A reader that went away (`buildcop hotlist | head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) stream.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1));
const { main } = await import('../lib/cli/main.ts');
const code = await main(process.argv.slice(2));
// A pipe takes output asynchronously: exiting at once cut an answer at the pipe's 64 KiB. An empty
// write's callback runs once everything written before it is out.
const flushed = (stream) => new Promise((resolve) => stream.write('', resolve));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
// Exit explicitly: an open PostgreSQL pool would otherwise keep the process alive.
process.exit(code);
