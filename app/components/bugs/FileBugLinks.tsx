'use client';
// "File a bug": the trackers' new-bug forms, prefilled with the test page's permanent link, which is
// relative when the server knows no trusted origin: made absolute here (see useAbsoluteUrl).
import type { NewBugLink } from '@/lib/bugs/fileBug';
import { useAbsoluteUrl } from '../useAbsoluteUrl';

function withPermalink(url: string, from: string, to: string): string {
  if (from === to) return url;
  const u = new URL(url);
  for (const [k, v] of [...u.searchParams]) if (v.includes(from)) u.searchParams.set(k, v.replaceAll(from, to));
  return u.toString();
}

export default function FileBugLinks({ links, permalink, className }: { links: NewBugLink[]; permalink: string; className?: string }) {
  const absolute = useAbsoluteUrl(permalink);
  return (
    <p className={className}>
      File a bug:{' '}
      {links.map((l) => (
        <a key={l.url} href={withPermalink(l.url, permalink, absolute)} target="_blank" rel="noopener noreferrer" data-tracker={l.tracker}>
          {l.label}
        </a>
      ))}
    </p>
  );
}
