// The JSON text of an API answer, as every route writes it (indented, a newline at the end). Kept per
// answer object: an answer served again from lib/server/recentAnswers.ts is not serialised again.
const texts = new WeakMap<object, string>();

export function jsonText(body: unknown): string {
  if (body === null || typeof body !== 'object') return `${JSON.stringify(body, null, 2)}\n`;
  let t = texts.get(body);
  if (t === undefined) texts.set(body, (t = `${JSON.stringify(body, null, 2)}\n`));
  return t;
}
