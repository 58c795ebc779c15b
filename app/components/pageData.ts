// Runs a page's lib call: an unknown id becomes the 404 page, an invalid query parameter a message
// on the page (the API answers 400 for the same), anything else the error page.
import { notFound } from 'next/navigation';

export type PageData<T> = { ok: true; data: T } | { ok: false; error: string };

export async function pageData<T>(load: () => Promise<T>): Promise<PageData<T>> {
  try {
    return { ok: true, data: await load() };
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === 404) notFound();
    if (status === 400) return { ok: false, error: (e as Error).message };
    throw e;
  }
}
