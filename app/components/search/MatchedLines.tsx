// Matching lines of a text with their context, numbered, the matches marked (as ci-search shows them).
import type { MatchedLine } from '@/lib/search/matchLines';
import Highlight from '../Highlight';

export default function MatchedLines({ lines, firstLine = 1 }: { lines: MatchedLine[]; firstLine?: number }) {
  if (!lines.length) return null;
  return (
    <pre className="failure-text small matched-lines">
      {lines.map((l) => (
        <span key={l.line} className="matched-block">
          {l.before.map((b, i) => (
            <span key={`b${i}`} className="context-line">
              <span className="line-no">{l.line + firstLine - 1 - l.before.length + i}</span>
              {b}
              {'\n'}
            </span>
          ))}
          <span className="match-line">
            <span className="line-no">{l.line + firstLine - 1}</span>
            <Highlight text={l.text} marks={l.marks} />
            {'\n'}
          </span>
          {l.after.map((a, i) => (
            <span key={`a${i}`} className="context-line">
              <span className="line-no">{l.line + firstLine + i}</span>
              {a}
              {'\n'}
            </span>
          ))}
        </span>
      ))}
    </pre>
  );
}
