import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { DEFAULT_WEB_ROOT } from '../../src/api/web-app-routes.js';
import type { WebSession } from './web-session.js';

/** Debian's chromium package; CHROMIUM_PATH points elsewhere. No browser is ever downloaded. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOTS_DIR = join(import.meta.dirname, '../../test-output/screenshots');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * Whether the browser tests can run here. In CI (TEST_REQUIRE_POSTGRES=1 or
 * TEST_REQUIRE_BROWSER=1) a missing chromium fails the run instead of skipping it.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.TEST_REQUIRE_BROWSER === '1' || process.env.TEST_REQUIRE_POSTGRES === '1') {
    throw new Error(
      `Chromium is required for the browser tests but ${CHROMIUM} does not exist (apt-get install -y chromium)`,
    );
  }
  console.warn(
    `Browser tests skipped: no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
  );
  return false;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** The app as `npm run build` leaves it; built here when a test run starts without it. */
export function ensureWebBuilt(): void {
  if (!existsSync(join(DEFAULT_WEB_ROOT, 'index.html'))) {
    execFileSync('npm', ['run', 'build:web'], { stdio: 'inherit' });
  }
}

/** The page at desktop and phone width, for a person to look at (test-output/screenshots). */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    // The chart redraws on resize, with a 300 ms animation; let it settle.
    await page.waitForTimeout(700);
    await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/** A desktop browser context signed in as the session's member on the server at `base`. */
export async function signedInContext(
  browser: Browser,
  base: string,
  session: WebSession,
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  return context;
}
