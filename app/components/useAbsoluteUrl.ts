// A link made absolute in the browser, against the address it is at. Pages rendered without a trusted
// origin (lib/server/origin.ts) hold relative links; what is copied into a bug tracker needs the
// whole address, and the browser knows it: the server cannot tell a forged Host from a real one.
import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

export function useAbsoluteUrl(href: string): string {
  return useSyncExternalStore(never, () => new URL(href, window.location.href).href, () => href);
}
