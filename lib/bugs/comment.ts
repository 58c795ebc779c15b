// Paste-ready bug comments, one pure formatter per tracker: Bugzilla shows plain text as written,
// Jira renders its wiki markup (||heading|| tables, [text|url] links, {noformat} blocks), GitHub
// renders Markdown. The input is neutral, so a test, a signature or a cause page can all fill it.
import type { Tracker } from '../sources/trackerBug';

export type { Tracker };

export interface CommentRun {
  job: string;
  buildId: string;
  /** the Prow page of the run */
  url: string;
  /** ISO time the run started */
  started: string;
  /** the test that failed in it, where the subject is not one test (a signature, a cause) */
  test?: string;
}

/**
 * What a comment says. Pages fill it from their own answer: a test page from its test, a signature
 * or cause page from the signature or cause (then `kind` names it and `runs` name their tests).
 */
export interface CommentInput {
  kind: 'test' | 'signature' | 'cause';
  /** the test's full name, or the signature's or cause's one-line title */
  subject: string;
  /** the verdict's class where there is one: regression, flaky, ... */
  classification?: string;
  /** the verdict's one-line evidence (`evidence.summary`) */
  evidence: string;
  /** the counts behind it, one line: "5 failed and 1 flaked of 40 runs in the 7d to ..." */
  counts?: string;
  /** a real failure text as stored (`test_outcome.message`), never the normalised signature */
  example?: { message: string; run: CommentRun };
  /** the newest failed runs, newest first (3 are shown) */
  runs: CommentRun[];
  /** the dashboard's permanent link (?at=...) to the same numbers */
  permalink: string;
}

export const RECENT_RUNS = 3;
/** Long failure texts (a log tail) are cut: the permanent link has the rest. */
export const MAX_MESSAGE = 2000;

const TITLES: Record<CommentInput['kind'], string> = { test: 'Test', signature: 'Failure signature', cause: 'Cause' };

function cutMessage(s: string): string {
  const t = s.replace(/\s+$/, '');
  return t.length <= MAX_MESSAGE ? t : `${t.slice(0, MAX_MESSAGE)}\n… (cut at ${MAX_MESSAGE} characters)`;
}

const verdictLine = (c: CommentInput) => (c.classification ? `${c.classification}: ${c.evidence}` : c.evidence);
const runLabel = (r: CommentRun) => `${r.job} #${r.buildId}`;

export function bugzillaComment(c: CommentInput): string {
  const lines = [`${TITLES[c.kind]}: ${c.subject}`, `Verdict: ${verdictLine(c)}`];
  if (c.counts) lines.push(c.counts);
  if (c.example) {
    lines.push('', `Example failure (${runLabel(c.example.run)}, ${c.example.run.url}):`, '', cutMessage(c.example.message));
  }
  const runs = c.runs.slice(0, RECENT_RUNS);
  if (runs.length) {
    lines.push('', `Newest failed runs:`);
    for (const r of runs) lines.push(`- ${r.started} ${runLabel(r)}${r.test ? ` (${r.test})` : ''}: ${r.url}`);
  }
  lines.push('', `Details (a permanent link): ${c.permalink}`);
  return lines.join('\n');
}

/**
 * Jira wiki text shown literally. Brackets, braces, pipes, backslashes and `!` are markup anywhere;
 * the emphasis marks (`*bold*`, `-strike-`, `_em_`, `+ins+`, `^sup^`, `~sub~`, `??cite??`) only next
 * to a space or punctuation, so `periodic-ci-...-e2e-aws` stays readable in the raw text.
 */
export function jiraEscape(s: string): string {
  const flat = s.replace(/\r?\n/g, ' ');
  return flat.replace(/[\\[\]{}|!]|[*_+^~?-]|^#/g, (ch, i: number) => {
    if (!'*_+^~?-'.includes(ch)) return `\\${ch}`;
    const word = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
    return word(flat[i - 1]) && word(flat[i + 1]) ? ch : `\\${ch}`;
  });
}

/** A URL inside [text|url]: the characters that would end the link are percent-encoded. */
function jiraUrl(url: string): string {
  return url.replace(/[\]|\s]/g, (ch) => encodeURIComponent(ch));
}

const jiraLink = (text: string, url: string) => `[${jiraEscape(text)}|${jiraUrl(url)}]`;

export function jiraComment(c: CommentInput): string {
  const lines = [
    `||${TITLES[c.kind]}|${jiraEscape(c.subject)}|`,
    `||Verdict|${jiraEscape(verdictLine(c))}|`,
  ];
  if (c.counts) lines.push(`||Runs|${jiraEscape(c.counts)}|`);
  lines.push(`||Details|${jiraLink('permanent link', c.permalink)}|`);
  if (c.example) {
    // {noformat} shows the text as it is; only the block's own end marker could break out of it
    const text = cutMessage(c.example.message).replace(/\{noformat\}/gi, '{ noformat}');
    lines.push('', `Example failure in ${jiraLink(runLabel(c.example.run), c.example.run.url)}:`, '{noformat}', text, '{noformat}');
  }
  const runs = c.runs.slice(0, RECENT_RUNS);
  if (runs.length) {
    const withTest = runs.some((r) => r.test);
    lines.push('', 'Newest failed runs:', `||Run||Started||${withTest ? 'Test||' : ''}`);
    for (const r of runs) lines.push(`|${jiraLink(runLabel(r), r.url)}|${jiraEscape(r.started)}|${withTest ? `${jiraEscape(r.test ?? '')}|` : ''}`);
  }
  return lines.join('\n');
}

/** A code span that holds any text: a run of backticks longer than any inside it. */
function codeSpan(s: string): string {
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${s.replace(/\r?\n/g, ' ')}${pad}${ticks}`;
}

function fenced(s: string): string {
  const longest = Math.max(2, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${s}\n${fence}`;
}

const mdText = (s: string) => s.replace(/[\\`*_[\]<>|]|^#/g, (ch) => `\\${ch}`).replace(/\r?\n/g, ' ');
const mdLink = (text: string, url: string) => `[${mdText(text)}](${url.replace(/[()\s<>]/g, (ch) => encodeURIComponent(ch))})`;

export function githubComment(c: CommentInput): string {
  const lines = [`**${TITLES[c.kind]}:** ${codeSpan(c.subject)}`, '', `**Verdict:** ${mdText(verdictLine(c))}`];
  if (c.counts) lines.push('', mdText(c.counts));
  if (c.example) lines.push('', `Example failure in ${mdLink(runLabel(c.example.run), c.example.run.url)}:`, '', fenced(cutMessage(c.example.message)));
  const runs = c.runs.slice(0, RECENT_RUNS);
  if (runs.length) {
    lines.push('', 'Newest failed runs:', '');
    for (const r of runs) lines.push(`- ${mdLink(runLabel(r), r.url)} ${mdText(r.started)}${r.test ? ` ${codeSpan(r.test)}` : ''}`);
  }
  lines.push('', `Details: ${mdLink('permanent link', c.permalink)}`);
  return lines.join('\n');
}

export const COMMENT_FORMATS: Record<Tracker, { label: string; format: string; write: (c: CommentInput) => string }> = {
  bugzilla: { label: 'Bugzilla', format: 'plain text', write: bugzillaComment },
  jira: { label: 'Jira', format: 'wiki markup', write: jiraComment },
  github: { label: 'GitHub', format: 'Markdown', write: githubComment },
};

export function bugComment(tracker: Tracker, c: CommentInput): string {
  return COMMENT_FORMATS[tracker].write(c);
}

/** The trackers a comment is offered for: the configured ones, or every one when none is. */
export function commentTrackers(config: { bugzilla?: unknown; jira?: unknown; github?: unknown } | undefined): Tracker[] {
  const configured = (['bugzilla', 'jira', 'github'] as const).filter((t) => config?.[t]);
  return configured.length ? configured : ['bugzilla', 'jira', 'github'];
}

/** Every offered format of one comment, for a page's chooser. */
export function bugComments(config: Parameters<typeof commentTrackers>[0], c: CommentInput): { tracker: Tracker; label: string; format: string; text: string }[] {
  return commentTrackers(config).map((tracker) => ({ tracker, label: COMMENT_FORMATS[tracker].label, format: COMMENT_FORMATS[tracker].format, text: bugComment(tracker, c) }));
}
