'use client';
// The test page's permanent link, shown whole (it is rendered relative without a trusted origin).
import { useAbsoluteUrl } from '../useAbsoluteUrl';

export default function PermanentLink({ href }: { href: string }) {
  const absolute = useAbsoluteUrl(href);
  return <a href={href}>{absolute}</a>;
}
