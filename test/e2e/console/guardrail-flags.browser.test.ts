// Guardrail flags in the console, in headless Chromium (Debian's; skipped without one), at 1280 and
// 375 px: a key under a guardrail whose email filter flags, one flagged chat and one clean chat
// through the API; the Generations log badges the flagged row with the filter's name and its
// "Flagged only" filter keeps that row alone; the generation's page reads "Guardrail flags: Email
// address". Screenshots under test/artifacts/console/ (flags-*); no page may log an error.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { guardrailFor } from "../guardrails/harness";
import { gatewayYaml, MODEL } from "../inference/harness";
import { CHROMIUM, pageWidth, SHOTS, screenshotter, signedIn as signedInAs, visit as visitPage } from "./browser-session";
import { type ConsoleGateway, startConsoleGateway } from "./harness";

const WIDTHS = [1280, 375] as const;
let up: MockUpstream;
let cg: ConsoleGateway;
let browser: Browser;
let flagged: string;
let clean: string;
const problems: string[] = [];

/** a chat through the API with `key`; its generation id */
async function chat(key: string, content: string): Promise<string> {
  const res = await cg.gw.api("/api/v1/chat/completions", {
    key,
    method: "POST",
    json: { model: MODEL["openai-chat"], messages: [{ role: "user", content }] },
  });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get("x-generation-id")!;
}

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(SHOTS, { recursive: true });
  up = await startMockUpstream();
  up.setHandler(() => ({ text: ["hi"], usage: { input: 3, output: 2 } }));
  cg = await startConsoleGateway({ yaml: gatewayYaml(up.url) });
  const res = await cg.gw.api("/api/v1/keys", { method: "POST", json: { name: "watched" } });
  const { key, data } = (await res.json()) as { key: string; data: { hash: string } };
  await guardrailFor(cg.gw, { name: "PII watch", content_filter_builtins: [{ slug: "email", action: "flag" }] }, data.hash);
  flagged = await chat(key, "write to a@example.com");
  clean = await chat(key, "write to nobody");
  await cg.gw.ctx.generations.settled();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 60_000);
afterAll(async () => {
  if (CHROMIUM) await Promise.all([browser?.close(), cg.close(), up.stop()]);
});

const shot = screenshotter("flags-");
const rowOf = (page: Page, id: string) => page.locator("table.generations tbody tr", { has: page.locator(`a[href$="/${id}"]`) });

test.skipIf(!CHROMIUM)(
  "the log badges the flagged generation with the filter's name, 'Flagged only' keeps it alone, and its page lists the guardrail flags",
  async () => {
    for (const width of WIDTHS) {
      const page = await signedInAs(browser, cg, "owner", problems, width);
      await visitPage(page, cg, "generations", "Generations");
      const flaggedRow = rowOf(page, flagged);
      await flaggedRow.waitFor();
      const badge = flaggedRow.locator(".badge", { hasText: "Flagged" });
      expect(await badge.isVisible()).toBe(true);
      expect(await badge.innerText()).toBe("Flagged");
      expect(await flaggedRow.locator(".flag-names").innerText()).toBe("Email address");
      expect(await flaggedRow.locator(".flag-names").isVisible()).toBe(true);
      expect(await rowOf(page, clean).getByText("Flagged").count()).toBe(0);
      expect(await page.locator("table.generations tbody tr").count()).toBe(2);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "log", width);

      // the filters fold behind their summary on a phone
      if (width === 375) await page.locator(".filters-details > summary").click();
      await page.getByLabel("Flagged only").check();
      await page.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/flagged=true/);
      await rowOf(page, clean).waitFor({ state: "detached" });
      expect(await page.locator("table.generations tbody tr").count()).toBe(1);
      expect(await rowOf(page, flagged).locator(".flag-names").innerText()).toBe("Email address");
      // the filter lives in the address, so a reload keeps it
      await page.reload();
      await rowOf(page, flagged).waitFor();
      expect(await page.locator("table.generations tbody tr").count()).toBe(1);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "log-flagged-only", width);

      await rowOf(page, flagged).locator(`a[href$="/${flagged}"]`).click();
      await page.getByRole("heading", { name: `Generation ${flagged}` }).waitFor();
      const line = page.locator("dl.record > div", { has: page.locator("dt", { hasText: "Guardrail flags" }) });
      await line.waitFor();
      expect(await line.locator("dd").innerText()).toBe("Email address");
      expect(await line.isVisible()).toBe(true);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "detail", width);

      // a clean generation's page has no such line
      await page.goto(`${cg.gw.url}/console#/generations/${clean}`);
      await page.getByRole("heading", { name: `Generation ${clean}` }).waitFor();
      await page.locator("dl.record").waitFor();
      expect(await page.getByText("Guardrail flags").count()).toBe(0);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)("no console page logged an error", () => {
  expect(problems).toEqual([]);
});
