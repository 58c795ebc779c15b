// The paste-ready bug comments: Bugzilla plain text, Jira wiki markup, GitHub Markdown, on sample
// data with the characters each format treats as markup.
import { describe, expect, it } from 'vitest';
import { bugComments, bugzillaComment, commentTrackers, githubComment, jiraComment, jiraEscape, MAX_MESSAGE, type CommentInput } from '../../lib/bugs/comment';

const TEST = '[sig-network] Services should be able to create a functioning NodePort service [Suite:openshift/conformance/parallel] [Suite:k8s]';
// a raw failure text as openshift-tests writes it (times, IPs and a Go file line, before normalising)
const MESSAGE = 'fail [k8s.io/kubernetes/test/e2e/network/service.go:1191]: Nov 22 22:07:51.629: Could not reach HTTP service through 10.0.106.37:30663 after 2m0s: dial tcp 10.0.106.37:30663: connect: connection refused';
const run = (buildId: string, started: string, job = 'periodic-ci-openshift-release-master-nightly-4.2-e2e-aws') => ({
  job,
  buildId,
  started,
  url: `https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/${job}/${buildId}`,
});

const input: CommentInput = {
  kind: 'test',
  subject: TEST,
  classification: 'regression',
  evidence: 'failure rate rose from 0.0% (0/469) to 38.5% (60/156) around 2026-11-19T12:00:00Z and stayed up',
  counts: '60 failed and 0 flaked of 311 runs (19.3% failed) in the 7d to 2026-11-23T00:00:00Z',
  example: { message: MESSAGE, run: run('2124601816904631080', '2026-11-22T20:32:01Z') },
  runs: [run('2124601816904631080', '2026-11-22T20:32:01Z'), run('2124596985066423079', '2026-11-22T20:12:49Z'), run('2124577112454071074', '2026-11-22T18:53:51Z'), run('2124500000000000000', '2026-11-22T10:00:00Z')],
  permalink: 'https://buildcop.example/tests/e062995a6d34c2e2?at=2026-11-23T00:00:00Z',
};

/** The cells of a Jira table row, split on the pipes that are not escaped. */
function jiraCells(row: string): { heading: boolean; text: string }[] {
  const cells: { heading: boolean; text: string }[] = [];
  let i = 0;
  let inLink = false;
  let current: { heading: boolean; text: string } | undefined;
  while (i < row.length) {
    const ch = row[i];
    if (ch === '\\') {
      if (current) current.text += row.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch === '[') inLink = true;
    if (ch === ']') inLink = false;
    if (ch === '|' && !inLink) {
      const heading = row[i + 1] === '|';
      if (current) cells.push(current);
      current = { heading, text: '' };
      i += heading ? 2 : 1;
      continue;
    }
    if (current) current.text += ch;
    i++;
  }
  return cells; // what follows the last pipe is not a cell
}

describe('Jira wiki markup', () => {
  const text = jiraComment(input);
  const lines = text.split('\n');

  it('writes the facts as ||heading|value| rows with the name escaped, not linked', () => {
    expect(lines[0]).toBe(`||Test|${jiraEscape(TEST)}|`);
    expect(lines[0]).toContain('\\[sig-network\\] Services');
    expect(lines[0]).not.toMatch(/(^|[^\\])\[sig-network/);
    expect(lines[1]).toBe(`||Verdict|regression: failure rate rose from 0.0% (0/469) to 38.5% (60/156) around 2026-11-19T12:00:00Z and stayed up|`);
    expect(lines).toContain(`||Details|[permanent link|${input.permalink}]|`);
  });

  it('lists the 3 newest failed runs as a table of [text|url] links', () => {
    const head = lines.indexOf('||Run||Started||');
    expect(head).toBeGreaterThan(0);
    const rows = lines.slice(head + 1).filter((l) => l.startsWith('|'));
    expect(rows).toHaveLength(3);
    for (const [k, row] of rows.entries()) {
      const r = input.runs[k];
      expect(row).toBe(`|[${r.job} #${r.buildId}|${r.url}]|${r.started}|`);
      expect(jiraCells(row).map((c) => c.heading)).toEqual([false, false]);
    }
    expect(text).not.toContain('2124500000000000000');
  });

  it('quotes the raw failure text in a {noformat} block, verbatim', () => {
    const start = lines.indexOf('{noformat}');
    expect(lines[start + 1]).toBe(MESSAGE);
    expect(lines[start + 2]).toBe('{noformat}');
  });

  it('keeps hostile text inside its cell and block', () => {
    const hostile = jiraComment({
      ...input,
      subject: 'a | b ] [evil|https://evil.example] {code} *bold* -strike-',
      example: { message: 'x\n{noformat}\n[link|https://evil.example]', run: input.runs[0] },
      runs: [{ ...input.runs[0], url: 'https://prow.example/a]|b c' }],
    });
    const first = hostile.split('\n')[0];
    expect(jiraCells(first)).toHaveLength(2);
    expect(first).toBe('||Test|a \\| b \\] \\[evil\\|https://evil.example\\] \\{code\\} \\*bold\\* \\-strike\\-|');
    // the message cannot end its block early
    expect(hostile.match(/^\{noformat\}$/gm)).toHaveLength(2);
    expect(hostile).toContain('|[periodic-ci-openshift-release-master-nightly-4.2-e2e-aws #2124601816904631080|https://prow.example/a%5D%7Cb%20c]|');
  });
});

describe('Bugzilla plain text', () => {
  const text = bugzillaComment(input);

  it('reads as written: no markup, the name and the failure text verbatim', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe(`Test: ${TEST}`);
    expect(lines[1]).toBe(`Verdict: regression: ${input.evidence}`);
    expect(lines[2]).toBe(input.counts);
    expect(lines).toContain(MESSAGE);
    for (const markup of ['**', '{noformat}', '```', '||', '](']) expect(text).not.toContain(markup);
  });

  it('gives the 3 newest failed runs with their URLs and the permanent link', () => {
    const runLines = text.split('\n').filter((l) => l.startsWith('- '));
    expect(runLines).toEqual(input.runs.slice(0, 3).map((r) => `- ${r.started} ${r.job} #${r.buildId}: ${r.url}`));
    expect(text.endsWith(`Details (a permanent link): ${input.permalink}`)).toBe(true);
  });

  it('cuts a log tail at the cap', () => {
    const long = bugzillaComment({ ...input, example: { message: 'x'.repeat(MAX_MESSAGE + 500), run: input.runs[0] } });
    expect(long).toContain(`${'x'.repeat(MAX_MESSAGE)}\n… (cut at ${MAX_MESSAGE} characters)`);
    expect(long).not.toContain('x'.repeat(MAX_MESSAGE + 1));
  });
});

describe('GitHub Markdown', () => {
  it('puts the name in a code span and the message in a fence longer than its backticks', () => {
    const text = githubComment({ ...input, example: { message: 'got ``` in output', run: input.runs[0] } });
    expect(text.split('\n')[0]).toBe(`**Test:** \`${TEST}\``);
    expect(text).toContain('````\ngot ``` in output\n````');
    expect(text).toContain(`- [${input.runs[0].job} #${input.runs[0].buildId}](${input.runs[0].url}) ${input.runs[0].started}`);
    expect(text).toContain(`Details: [permanent link](${input.permalink})`);
  });

  it('names each run\'s test where the subject is a signature', () => {
    const text = githubComment({ ...input, kind: 'signature', subject: 'Could not reach HTTP service through IP:PORT', runs: [{ ...input.runs[0], test: TEST }] });
    expect(text.split('\n')[0]).toBe('**Failure signature:** `Could not reach HTTP service through IP:PORT`');
    expect(text).toContain(`\`${TEST}\``);
  });
});

describe('which formats a page offers', () => {
  it('the configured trackers, or all three when none is', () => {
    expect(commentTrackers({ jira: {} })).toEqual(['jira']);
    expect(commentTrackers({ bugzilla: {}, github: {} })).toEqual(['bugzilla', 'github']);
    expect(commentTrackers(undefined)).toEqual(['bugzilla', 'jira', 'github']);
    expect(bugComments({ jira: {}, bugzilla: {} }, input).map((c) => [c.tracker, c.format])).toEqual([['bugzilla', 'plain text'], ['jira', 'wiki markup']]);
  });
});
