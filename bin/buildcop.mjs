#!/usr/bin/env node
// The `buildcop` command: loads the TypeScript CLI through tsx (a runtime dependency).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../lib/cli/main.ts');
// Exit explicitly: an open PostgreSQL pool would otherwise keep the process alive.
process.exit(await main(process.argv.slice(2)));
