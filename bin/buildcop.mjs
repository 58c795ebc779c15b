#!/usr/bin/env node
// The `buildcop` command: the CLI bundled to plain JavaScript (scripts/cliBundle.mjs; rebuilt when
// the sources change), or the TypeScript sources through tsx when it cannot be bundled or
// BUILDCOP_CLI_TSX=1 asks for them.
import { pathToFileURL } from 'node:url';

// A reader that went away (`buildcop hotlist | head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) stream.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1));
let main;
if (process.env.BUILDCOP_CLI_TSX !== '1') {
  try {
    const { cliBundle } = await import('../scripts/cliBundle.mjs');
    ({ main } = await import(pathToFileURL(await cliBundle()).href));
  } catch (e) {
    process.stderr.write(`buildcop: running the TypeScript sources (the bundled CLI failed: ${e.message})\n`);
  }
}
if (!main) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../lib/cli/main.ts'));
}
const code = await main(process.argv.slice(2));
// Exit explicitly (an open PostgreSQL pool would otherwise keep the process alive), once what was
// written is out: a pipe takes a large --json in pieces, and exiting at once cut it short.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
