// Text with the matches of a regex marked (<mark>), as React text nodes only.
import type { ReactNode } from 'react';

export default function Highlight({ text, pattern }: { text: string; pattern: string }) {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'g');
  } catch {
    return <>{text}</>;
  }
  const out: ReactNode[] = [];
  let last = 0;
  for (let m = re.exec(text), n = 0; m && n < 50; m = re.exec(text), n++) {
    if (!m[0].length) {
      re.lastIndex++;
      continue;
    }
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(<mark key={m.index}>{m[0]}</mark>);
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return <>{out}</>;
}
