// Debian's Chromium through playwright-core (never a downloaded browser), with what a test needs
// to catch script injection: dialogs and CSP violations are recorded on the page.
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

export interface WatchedPage {
  page: Page;
  /** messages of dialogs (alert, confirm, prompt) the page opened; dismissed at once */
  dialogs: string[];
  /** console errors and uncaught page errors (CSP violations show up here) */
  errors: string[];
}

export async function newPage(browser: Browser, opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 }, colorScheme: opts.colorScheme ?? 'light' });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, dialogs, errors };
}
