// The JSON text of an API answer, as every route writes it, a newline at the end: indented while it
// is small enough to read in a terminal, compact beyond that (a 7d hot list at OpenShift's scale is
// 4.1 MB compact, 5.5 MB indented; Next.js gzips it on every request, 40 ms against 105 ms). Kept per
// answer object: an answer served again from lib/server/recentAnswers.ts is not serialised again.
import { StandingJson } from '../answers/standingJson';

const texts = new WeakMap<object, string>();

/** Answers longer than this (compact) are sent compact. */
export const INDENTED_UP_TO_CHARS = 32 * 1024;

function serialise(body: unknown): string {
  const compact = JSON.stringify(body);
  if (compact === undefined) return 'null\n';
  return compact.length > INDENTED_UP_TO_CHARS ? `${compact}\n` : `${JSON.stringify(body, null, 2)}\n`;
}

export function jsonText(body: unknown): string {
  if (body === null || typeof body !== 'object') return serialise(body);
  // stored compact: sent as it is when it is that large, else indented as any other
  if (body instanceof StandingJson) return body.text.length > INDENTED_UP_TO_CHARS ? `${body.text}\n` : serialise(JSON.parse(body.text));
  let t = texts.get(body);
  if (t === undefined) texts.set(body, (t = serialise(body)));
  return t;
}
