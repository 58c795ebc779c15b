// The dashboard's own origin, for permanent links and OpenGraph URLs: BUILDCOP_PUBLIC_URL when set
// (behind a proxy), else the request's Host.
import { headers } from 'next/headers';

const SAFE_HOST = /^[A-Za-z0-9.\-:[\]]{1,255}$/;

export async function requestOrigin(): Promise<string> {
  const configured = process.env.BUILDCOP_PUBLIC_URL;
  if (configured && /^https?:\/\//.test(configured)) return configured.replace(/\/+$/, '');
  const h = await headers();
  const hostHeader = h.get('x-forwarded-host') ?? h.get('host') ?? '';
  // A forged Host must not end up in links the page hands out.
  const host = SAFE_HOST.test(hostHeader) ? hostHeader : 'localhost';
  const proto = h.get('x-forwarded-proto') === 'https' ? 'https' : 'http';
  return `${proto}://${host}`;
}
