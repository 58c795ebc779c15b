// bugs: the known bugs and what they are linked to; link, unlink and refresh by hand.
import { loadConfig, loadConfigIfPresent } from '../config';
import { BugRequestError, linkBug, listBugs, unlinkBug } from '../bugs/manage';
import { refreshBugs } from '../ingest/bugs';
import { httpClientFor } from '../ingest/run';
import { databaseUrl, openDatabase } from '../store/db';
import { parse, printJson, UsageError } from './args';
import type { Command } from './command';

const USAGE = `Usage: buildcop bugs [--linked] [--json]
       buildcop bugs link "<test name or id>" <bug URL or id> [--tracker bugzilla|jira|github] [--signature HASH]
       buildcop bugs unlink "<test name or id>" <bug URL or id> [--tracker T] [--signature HASH]
       buildcop bugs refresh

Lists the bugs fetched from Bugzilla, Jira and GitHub with the tests each is linked to and why
(name-in-summary, name-in-description, name-in-comment, signature, manual). --json prints
{ "bugs": [ { tracker, id, url, summary, status, tests, links: [ { test, reason } ] } ] }.
link/unlink change links by hand (they survive re-ingest; an automatic link unlinked stays gone);
with --signature they apply to the failure signature, so to every test failing with it.
refresh fetches what changed in the trackers now and recomputes the automatic links (ingest does
this on every pass).`;

export const bugsCommand: Command = {
  usage: USAGE,
  async run(argv) {
    const { values: v, positionals } = parse(argv, { linked: { type: 'boolean' }, tracker: { type: 'string' }, signature: { type: 'string' } } as const, true);
    const [action, ...args] = positionals;
    // the list may read a replica (DATABASE_READ_URL); link, unlink and refresh write, on DATABASE_URL
    const db = await openDatabase(!action || action === 'list' ? v.db : databaseUrl(v.db));
    try {
      if (!action || action === 'list') {
        if (args.length) throw new UsageError('bugs takes no arguments');
        const result = await listBugs(db, { linkedOnly: !!v.linked });
        if (v.json) printJson(result);
        else {
          for (const b of result.bugs) {
            process.stdout.write(`${b.tracker} ${b.id} [${b.status}] ${b.summary}\n  ${b.url}\n`);
            for (const l of b.links) process.stdout.write(`    ${l.reason.padEnd(19)} ${l.test}\n`);
          }
          process.stdout.write(`${result.bugs.length} bugs, ${result.bugs.filter((b) => b.links.length).length} linked\n`);
        }
        return 0;
      }
      if (action === 'link' || action === 'unlink') {
        if (args.length !== 2) throw new UsageError(`bugs ${action} takes a test (name or id) and a bug (URL or id)`);
        const req = { test: args[0], bug: args[1], tracker: v.tracker, signature: v.signature };
        const config = loadConfigIfPresent(v.config);
        const result = action === 'link' ? await linkBug(db, req, { config, http: config ? httpClientFor(config) : undefined }) : await unlinkBug(db, req);
        if (v.json) printJson(result);
        else process.stdout.write(`${action === 'link' ? 'linked' : 'unlinked'} ${result.bug.tracker} ${result.bug.id} ${action === 'link' ? 'to' : 'from'} ${result.signature ? `signature ${result.signature} (from ${result.test})` : result.test}\n`);
        return 0;
      }
      if (action === 'refresh') {
        const config = loadConfig(v.config);
        const result = await refreshBugs({ config, db, http: httpClientFor(config) });
        for (const w of result.warnings) process.stderr.write(`bugs: warning: ${w}\n`);
        if (v.json) printJson(result);
        else process.stdout.write(`${result.summary}\n`);
        return 0;
      }
      throw new UsageError(`unknown action "${action}" (list, link, unlink, refresh)`);
    } catch (e) {
      if (e instanceof BugRequestError) throw Object.assign(e, { expose: true });
      throw e;
    }
  },
};
