// A run's refs as a buildcop follows them: the pull request page of a presubmit.

/** https://github.com/<org>/<repo>/pull/<n>, where the refs name the repository (Prow's refs do). */
export function pullUrl(refs: { org?: unknown; repo?: unknown } | undefined, pull: number): string | null {
  const ok = (s: unknown): s is string => typeof s === 'string' && /^[\w.-]{1,100}$/.test(s) && s !== '.' && s !== '..';
  return refs && ok(refs.org) && ok(refs.repo) && Number.isSafeInteger(pull) && pull > 0 ? `https://github.com/${refs.org}/${refs.repo}/pull/${pull}` : null;
}
