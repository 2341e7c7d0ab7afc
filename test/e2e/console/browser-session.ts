/**
 * What the console's browser tests share: Debian's Chromium (the tests skip without one), a page
 * signed in through the sign-in form at a given width, recording the console's errors (a CSP
 * violation is one), and a visit to a page that waits for its heading and its data.
 */

import { expect } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { type ConsoleGateway, EMAIL, PASSWORD, type Person } from "./harness";

export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(existsSync);
export const SHOTS = join(import.meta.dir, "../../artifacts/console");

if (!CHROMIUM) console.error("console browser tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)");

/** a page signed in as `who` (or with `email`) through the sign-in form, at `width` px; errors of the console's pages go to `problems` */
export async function signedIn(browser: Browser, cg: ConsoleGateway, who: Person, problems: string[], width = 1280, email = EMAIL[who]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, acceptDownloads: true });
  // the console's pages only (the sign-in page is another module's)
  page.on("console", (m) => m.type() === "error" && page.url().includes("/console") && problems.push(`${who} ${page.url()}: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`${who} ${page.url()}: ${e.message}`));
  page.on("dialog", (d) => void d.accept());
  await page.goto(`${cg.gw.url}/console`);
  expect(new URL(page.url()).pathname).toBe("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${cg.gw.url}/console`);
  await page.getByRole("heading", { name: "Overview" }).waitFor();
  return page;
}

/** opens a console page by its route and waits for its heading and for its data to load */
export async function visit(page: Page, cg: ConsoleGateway, route: string, heading: string): Promise<void> {
  const started = performance.now();
  await page.goto(`${cg.gw.url}/console#/${route}`);
  await page.getByRole("heading", { name: heading, exact: true }).first().waitFor();
  await page
    .locator(".loading")
    .first()
    .waitFor({ state: "detached", timeout: 5000 })
    .catch(() => undefined);
  if (process.env.CONSOLE_TIMING) console.log(`${route}: ${(performance.now() - started).toFixed(0)} ms`);
}

/** the page's full width: more than the viewport's means something scrolls sideways */
export const pageWidth = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth);

/** a full-page screenshot under test/artifacts/console/, named `${prefix}${name}-${width}.png` */
export const screenshotter =
  (prefix: string) =>
  (page: Page, name: string, width: number): Promise<Buffer> =>
    page.screenshot({ path: join(SHOTS, `${prefix}${name}-${width}.png`), fullPage: true });
