// "File a bug": the configured trackers' new-bug forms, prefilled with the test name, the verdict,
// the evidence and the dashboard's permanent link. The full test name goes in the summary (and the
// description), so the bug links itself to the test by name on the next refresh.
import type { Config } from '../config';
import { githubIssueUrl } from '../sources/github';
import { trimSlash } from '../sources/trackerBug';

export interface NewBugContext {
  testName: string;
  classification: string;
  evidenceSummary: string;
  permalink: string;
}

export interface NewBugLink {
  tracker: 'bugzilla' | 'jira' | 'github';
  /** what the link says: "Bugzilla", "Jira", "GitHub kubernetes/kubernetes" */
  label: string;
  url: string;
}

const MAX_SUMMARY = 250;
const MAX_EVIDENCE = 1500;

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

export function newBugText(ctx: NewBugContext): { summary: string; description: string } {
  const summary = cut(ctx.testName, MAX_SUMMARY);
  const description = [
    `Test: ${ctx.testName}`,
    `Verdict: ${ctx.classification}${ctx.evidenceSummary ? ` (${cut(ctx.evidenceSummary, MAX_EVIDENCE)})` : ''}`,
    `Dashboard: ${ctx.permalink}`,
    '',
    'Filed from buildcop.',
  ].join('\n');
  return { summary, description };
}

/** product="X" (or product:X) in a Bugzilla quicksearch, so enter_bug.cgi skips its product chooser */
export function bugzillaProduct(query: string | undefined): string | undefined {
  const m = /\bproduct\s*[=:]\s*(?:"([^"]+)"|'([^']+)'|([^\s"']+))/i.exec(query ?? '');
  return m ? (m[1] ?? m[2] ?? m[3]).split(',')[0] : undefined;
}

export function newBugLinks(config: Pick<Config, 'bugzilla' | 'jira' | 'github'> | undefined, ctx: NewBugContext): NewBugLink[] {
  const { summary, description } = newBugText(ctx);
  const out: NewBugLink[] = [];
  if (config?.bugzilla) {
    const u = new URL(`${trimSlash(config.bugzilla.url)}/enter_bug.cgi`);
    const product = bugzillaProduct(config.bugzilla.query);
    if (product) u.searchParams.set('product', product);
    u.searchParams.set('short_desc', summary);
    u.searchParams.set('comment', description);
    out.push({ tracker: 'bugzilla', label: 'Bugzilla', url: u.toString() });
  }
  if (config?.jira) {
    const u = new URL(`${trimSlash(config.jira.url)}/secure/CreateIssueDetails!init.jspa`);
    u.searchParams.set('summary', summary);
    u.searchParams.set('description', description);
    out.push({ tracker: 'jira', label: 'Jira', url: u.toString() });
  }
  for (const repo of config?.github?.repos ?? []) {
    const u = new URL(githubIssueUrl(config!.github!.url, repo, 'new'));
    u.searchParams.set('title', summary);
    u.searchParams.set('body', description);
    out.push({ tracker: 'github', label: `GitHub ${repo}`, url: u.toString() });
  }
  return out;
}
