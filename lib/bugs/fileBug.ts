// "File a bug": the configured trackers' new-bug forms, prefilled with the test name, the verdict,
// the evidence and the dashboard's permanent link. The full test name goes in the summary (and the
// description), so the bug links itself to the test by name on the next refresh.
import type { Config, OwnerTrackers } from '../config';
import { testOwner } from '../parse/variants';
import { githubIssueUrl } from '../sources/github';
import { trimSlash } from '../sources/trackerBug';

export interface NewBugContext {
  testName: string;
  classification: string;
  evidenceSummary: string;
  permalink: string;
  /** who owns the test ("network" for [sig-network]); from its name when not given */
  owner?: string;
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

/** The `owners` entry of a test's owner: keyed "sig-network" as the test name writes it, or "network". */
export function ownerTrackers(owners: Config['owners'], owner: string): OwnerTrackers | undefined {
  if (!owners) return undefined;
  const entry = Object.hasOwn(owners, `sig-${owner}`) ? owners[`sig-${owner}`] : Object.hasOwn(owners, owner) ? owners[owner] : undefined;
  return entry;
}

const setIf = (u: URL, key: string, value: string | number | undefined) => {
  if (value !== undefined && value !== '') u.searchParams.set(key, String(value));
};

/**
 * The trackers' new-bug forms, filled: Bugzilla's enter_bug.cgi (product, component, version,
 * short_desc, comment), Jira's CreateIssueDetails!init.jspa (pid, issuetype, components, summary,
 * description) and GitHub's issues/new (title, body, labels). The owner's component wins over the
 * configured default.
 */
export function newBugLinks(config: Pick<Config, 'bugzilla' | 'jira' | 'github' | 'owners'> | undefined, ctx: NewBugContext): NewBugLink[] {
  const { summary, description } = newBugText(ctx);
  const owned = ownerTrackers(config?.owners, ctx.owner ?? testOwner(ctx.testName));
  const out: NewBugLink[] = [];
  if (config?.bugzilla) {
    const bz = config.bugzilla;
    const u = new URL(`${trimSlash(bz.url)}/enter_bug.cgi`);
    setIf(u, 'product', bz.product ?? bugzillaProduct(bz.query));
    setIf(u, 'component', owned?.bugzilla ?? bz.component);
    setIf(u, 'version', bz.version);
    u.searchParams.set('short_desc', summary);
    u.searchParams.set('comment', description);
    out.push({ tracker: 'bugzilla', label: 'Bugzilla', url: u.toString() });
  }
  if (config?.jira) {
    const u = new URL(`${trimSlash(config.jira.url)}/secure/CreateIssueDetails!init.jspa`);
    setIf(u, 'pid', config.jira.projectId);
    setIf(u, 'issuetype', config.jira.issueType);
    setIf(u, 'components', owned?.jira);
    u.searchParams.set('summary', summary);
    u.searchParams.set('description', description);
    out.push({ tracker: 'jira', label: 'Jira', url: u.toString() });
  }
  for (const repo of config?.github?.repos ?? []) {
    const u = new URL(githubIssueUrl(config!.github!.url, repo, 'new'));
    u.searchParams.set('title', summary);
    u.searchParams.set('body', description);
    setIf(u, 'labels', owned?.github);
    out.push({ tracker: 'github', label: `GitHub ${repo}`, url: u.toString() });
  }
  return out;
}
