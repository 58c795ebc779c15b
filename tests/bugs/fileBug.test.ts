// "File a bug": the filled new-bug URLs, checked field by field against the forms' real parameters
// (Bugzilla enter_bug.cgi, Jira CreateIssueDetails!init.jspa, GitHub issues/new).
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../lib/config';
import { newBugLinks, newBugText } from '../../lib/bugs/fileBug';

const config = validateConfig({
  prow: { url: 'https://prow.ci.openshift.org' },
  bugzilla: { url: 'https://bugzilla.redhat.com/', product: 'OpenShift Container Platform', component: 'Unknown', version: '4.2.0' },
  jira: { url: 'https://issues.redhat.com', projectId: 12332330, issueType: '1' },
  github: { url: 'https://api.github.com', repos: ['openshift/origin'] },
  owners: { 'sig-network': { bugzilla: 'Networking', jira: 'Networking', github: 'sig/network' }, storage: { bugzilla: 'Storage' } },
});
const permalink = 'https://buildcop.example/tests/e062995a6d34c2e2?at=2026-11-23T00:00:00Z';
const ctx = (testName: string) => ({ testName, classification: 'regression', evidenceSummary: 'failure rate rose from 0.0% to 38.5%', permalink });

/** The query of a URL as an object, every key once (a repeated key would show as an array). */
function fields(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URL(url).searchParams) out[k] = k in out ? [out[k] as string, v].flat() : v;
  return out;
}

describe('file a bug', () => {
  const network = '[sig-network] Services should be able to create a functioning NodePort service [Suite:openshift/conformance/parallel] [Suite:k8s]';
  const { summary, description } = newBugText(ctx(network));

  it('fills Bugzilla\'s enter_bug.cgi: product, the owner\'s component, version, summary, comment', () => {
    const bz = newBugLinks(config, ctx(network)).find((l) => l.tracker === 'bugzilla')!;
    const u = new URL(bz.url);
    expect(`${u.origin}${u.pathname}`).toBe('https://bugzilla.redhat.com/enter_bug.cgi');
    expect(fields(bz.url)).toEqual({ product: 'OpenShift Container Platform', component: 'Networking', version: '4.2.0', short_desc: network, comment: description });
    expect(summary).toBe(network);
  });

  it('fills Jira\'s CreateIssueDetails!init.jspa: pid, issuetype, the owner\'s component, summary, description', () => {
    const jira = newBugLinks(config, ctx(network)).find((l) => l.tracker === 'jira')!;
    const u = new URL(jira.url);
    expect(`${u.origin}${u.pathname}`).toBe('https://issues.redhat.com/secure/CreateIssueDetails!init.jspa');
    expect(fields(jira.url)).toEqual({ pid: '12332330', issuetype: '1', components: 'Networking', summary: network, description });
  });

  it('fills GitHub\'s issues/new: title, body and the owner\'s label', () => {
    const gh = newBugLinks(config, ctx(network)).find((l) => l.tracker === 'github')!;
    const u = new URL(gh.url);
    expect(`${u.origin}${u.pathname}`).toBe('https://github.com/openshift/origin/issues/new');
    expect(fields(gh.url)).toEqual({ title: network, body: description, labels: 'sig/network' });
  });

  it('falls back to the configured component, and leaves out what is not configured', () => {
    const dns = '[sig-apps] StatefulSet should perform rolling updates [Suite:k8s]';
    const [bz, jira, gh] = newBugLinks(config, ctx(dns));
    expect(fields(bz.url).component).toBe('Unknown');
    expect(fields(jira.url)).not.toHaveProperty('components');
    expect(fields(gh.url)).not.toHaveProperty('labels');
    // an owner keyed without "sig-"
    expect(fields(newBugLinks(config, ctx('[sig-storage] In-tree Volumes should work'))[0].url).component).toBe('Storage');
    const bare = newBugLinks(validateConfig({ prow: { url: 'https://prow.example' }, bugzilla: { url: 'https://bz.example' }, jira: { url: 'https://jira.example' } }), ctx(network));
    expect(Object.keys(fields(bare[0].url))).toEqual(['short_desc', 'comment']);
    expect(Object.keys(fields(bare[1].url))).toEqual(['summary', 'description']);
  });

  it('names a prototype key as an owner without reaching into Object.prototype', () => {
    const links = newBugLinks(config, { ...ctx('x'), owner: 'constructor' });
    expect(fields(links[0].url).component).toBe('Unknown');
  });
});
