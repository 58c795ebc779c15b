#!/usr/bin/env node
// The `buildcop` command: loads the TypeScript CLI through tsx (a runtime dependency).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../lib/cli/main.ts');
// Exit explicitly: an open PostgreSQL pool would otherwise keep the process alive. Once what was
// written has gone: writes to a pipe are asynchronous, and a large --json answer was cut short.
const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.exit(code));
