// Text with the given ranges marked (<mark>), as React text nodes only. The ranges come with the
// answer (lib/patterns.ts matchRanges, on RE2): the page runs no user pattern itself.
import type { ReactNode } from 'react';

export default function Highlight({ text, marks }: { text: string; marks: readonly (readonly [number, number])[] | undefined }) {
  const out: ReactNode[] = [];
  let last = 0;
  for (const [from, to] of marks ?? []) {
    if (from < last || to > text.length) continue;
    if (from > last) out.push(text.slice(last, from));
    out.push(<mark key={from}>{text.slice(from, to)}</mark>);
    last = to;
  }
  out.push(text.slice(last));
  return <>{out}</>;
}
