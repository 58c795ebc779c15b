// Checks made once as the server starts: `next start` runs register() before it listens.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') await import('./lib/server/startChecks');
}
