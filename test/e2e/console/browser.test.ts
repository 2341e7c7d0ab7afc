// The console in headless Chromium (Debian's /usr/bin/chromium; skipped without one): sign in,
// create a key and use it through the API, see its spend on the overview and its generation in
// the log with the prompt and completion I/O logging kept, disable it, rotate a BYOK key, create
// a webhook destination at a loopback receiver and test and disable it, and a member's limited
// (read-only) view. Every page is
// photographed at 1280 and 375 px under test/artifacts/console/ (not committed), and no page
// may log an error: a CSP violation would be one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { type HttpRecorder, startHttpRecorder } from "../../support/http-recorder";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { gatewayYaml, MODEL } from "../inference/harness";
import { CHROMIUM, SHOTS, signedIn as signedInAs, visit as visitPage } from "./browser-session";
import { type ConsoleGateway, type Person, startConsoleGateway } from "./harness";

const PAGES = ["overview", "keys", "generations", "models", "playground", "workspaces", "byok", "presets", "guardrails", "cache", "observability", "jobs"];

let up: MockUpstream;
let receiver: HttpRecorder;
let cg: ConsoleGateway;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(SHOTS, { recursive: true });
  up = await startMockUpstream();
  receiver = startHttpRecorder();
  // destinations at the loopback receiver are user-supplied private URLs
  // the harness yaml allows private URLs already (the mock on loopback is a webhook and an image host)
  cg = await startConsoleGateway({ yaml: gatewayYaml(up.url) });
  const defaultWs = ((await (await cg.gw.api("/api/v1/workspaces/default")).json()) as { data: { id: string } }).data.id;
  const logging = await cg.gw.api(`/api/v1/workspaces/${defaultWs}`, {
    method: "PATCH",
    json: { is_observability_io_logging_enabled: true, io_logging_sampling_rate: 1 },
  });
  expect(logging.status).toBe(200);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  // a cold Chromium (first launch after install, a busy machine) takes longer than bun's 5 s hook limit
}, 60_000);
afterAll(async () => {
  if (!CHROMIUM) return;
  await browser?.close();
  await cg.close();
  await up.stop();
  await receiver.stop();
});

const signedIn = (who: Person, width = 1280): Promise<Page> => signedInAs(browser, cg, who, problems, width);
const visit = (page: Page, route: string, heading: string) => visitPage(page, cg, route, heading);

test.skipIf(!CHROMIUM)(
  "an owner creates a key, uses it, sees its spend and generation, and disables it",
  async () => {
    const page = await signedIn("owner");
    await visit(page, "keys", "API keys");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByLabel("Name").fill("browser key");
    await page.getByLabel("Spending limit (USD)").fill("5");
    await page.getByLabel("Limit resets").selectOption("monthly");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    const raw = (await page.locator("[data-copy-source]").textContent())!;
    expect(raw).toMatch(/^sk-gw-v1-/);
    await page.screenshot({ path: join(SHOTS, "keys-created-1280.png"), fullPage: true });

    // the key works through the public API: 3 prompt + 2 completion tokens at $1e-6 / $2e-6
    up.enqueue({ text: ["Hello from the console"], usage: { input: 3, output: 2 } });
    const res = await fetch(`${cg.gw.url}/api/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${raw}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL["openai-chat"], messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(200);
    const generation = res.headers.get("x-generation-id")!;

    await visit(page, "overview", "Overview");
    await expect(page.locator(".stat", { hasText: "Today" }).locator(".stat-spend").textContent()).resolves.toBe("$0.0000070");
    await expect(page.locator(".stat", { hasText: "Today" }).locator(".stat-requests").textContent()).resolves.toBe("1 request");
    await expect(page.getByRole("row", { name: /browser key/ }).textContent()).resolves.toContain("$0.0000070");

    await visit(page, "generations", "Generations");
    const row = page.getByRole("row", { name: /t\/chat/ });
    await expect(row.textContent()).resolves.toContain("success");
    await row.getByRole("link").click();
    await page.getByRole("heading", { name: `Generation ${generation}` }).waitFor();
    await page.getByRole("heading", { name: "Attempts" }).waitFor();
    await expect(page.locator("dl.record").textContent()).resolves.toContain("$0.0000070");
    // the workspace's I/O logging kept the prompt and completion
    const content = page.getByRole("region", { name: "Prompt and completion" });
    await content.getByText("Hello from the console").waitFor();
    await expect(content.locator("ol.messages li").allTextContents()).resolves.toEqual(["userhi"]);
    await page.screenshot({ path: join(SHOTS, "generation-content-1280.png"), fullPage: true });

    await visit(page, "keys", "API keys");
    await page.getByRole("button", { name: "Disable browser key" }).click();
    await page
      .getByRole("row", { name: /browser key/ })
      .getByText("Disabled")
      .waitFor();
    const refused = await fetch(`${cg.gw.url}/api/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${raw}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL["openai-chat"], messages: [{ role: "user", content: "hi" }] }),
    });
    expect(refused.status).toBe(401);
    await page.close();
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "an admin adds a BYOK key and rotates it: only masked labels are shown",
  async () => {
    const page = await signedIn("admin");
    await visit(page, "byok", "BYOK credentials");
    await page.getByLabel("Provider slug").fill("oc");
    await page.getByLabel("Provider API key").fill("sk-first-provider-key-0123456789abcd");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    const row = page.getByRole("row", { name: /oc/ }).first();
    await row.getByText("Active").waitFor();
    const before = (await row.locator("code").textContent())!;
    expect(before).not.toContain("0123456789abcd");
    await row.getByRole("button", { name: /^Rotate/ }).click();
    await page.getByLabel("New provider API key").fill("sk-second-provider-key-9876543210wxyz");
    await page.getByRole("button", { name: "Save new key" }).click();
    await page.getByRole("row", { name: /oc/ }).first().locator("code", { hasNotText: before }).waitFor();
    const after = (await page.getByRole("row", { name: /oc/ }).first().locator("code").textContent())!;
    expect(after).not.toBe(before);
    expect(await page.content()).not.toContain("sk-second-provider-key-9876543210wxyz");
    await page.close();
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "an admin creates a webhook destination, tests its connection, edits it with its secret kept, and disables it",
  async () => {
    const page = await signedIn("admin");
    await visit(page, "observability", "Observability destinations");
    await page.getByRole("button", { name: "New destination" }).click();
    const form = page.getByRole("form", { name: "New destination" });
    await expect(form.getByLabel("Type").inputValue()).resolves.toBe("webhook");
    // the keyboard goes on in the form (the button that opened it is gone)
    expect(await page.evaluate(() => document.activeElement?.closest("form")?.getAttribute("aria-label"))).toBe("New destination");
    await form.getByLabel("Name", { exact: true }).fill("loopback hook");
    await form.getByLabel("URL", { exact: true }).fill(`${receiver.url}/traces`);
    await expect(form.getByLabel("Method").inputValue()).resolves.toBe("");
    await form.getByLabel("Extra headers (JSON)").fill('{ "Authorization": "Bearer hook-secret-0123456789" }');
    await form.getByLabel("Filter rules (JSON)").fill("{ groups: [] }");
    await form.getByLabel("Save without the connection test").check();
    await form.getByRole("button", { name: "Create" }).click();
    await form
      .getByRole("alert")
      .getByText(/^Filter rules: not valid JSON/)
      .waitFor();
    await form.getByLabel("Filter rules (JSON)").fill("");
    await form.getByLabel("Save without the connection test").uncheck();
    receiver.reset();
    await form.getByRole("button", { name: "Test connection" }).click();
    await form.getByRole("status").getByText("Connection test passed").waitFor();
    expect(receiver.requests.map((r) => [r.method, r.path, r.headers["x-test-connection"], r.headers.authorization])).toEqual([
      ["POST", "/traces", "true", "Bearer hook-secret-0123456789"],
    ]);
    expect(await cg.gw.ctx.store.destinations.count((await cg.gw.ctx.store.workspaces.getDefault())!.id)).toBe(0);
    await page.screenshot({ path: join(SHOTS, "observability-form-admin-1280.png"), fullPage: true });
    await form.getByRole("button", { name: "Create" }).click();
    const row = page.getByRole("row", { name: /loopback hook/ });
    await row.getByText("Enabled").waitFor();
    await page.getByText("Destination “loopback hook” saved.").waitFor();

    // the header's value comes back masked, and an edit that leaves it keeps the secret
    await row.getByRole("button", { name: "Edit loopback hook" }).click();
    const edit = page.getByRole("form", { name: "Edit loopback hook" });
    await expect(edit.getByLabel("Extra headers (JSON)").inputValue()).resolves.toContain("Bear…");
    expect(await page.content()).not.toContain("hook-secret-0123456789");
    await edit.getByLabel("Sampling rate").fill("0.5");
    receiver.reset();
    await edit.getByRole("button", { name: "Test connection" }).click();
    await edit.getByRole("status").getByText("Connection test passed").waitFor();
    expect(receiver.requests[0]?.headers.authorization).toBe("Bearer hook-secret-0123456789");
    await edit.getByRole("button", { name: "Save" }).click();
    await page
      .getByRole("row", { name: /loopback hook/ })
      .getByText("50%")
      .waitFor();

    await page.getByRole("button", { name: "Disable loopback hook" }).click();
    await page
      .getByRole("row", { name: /loopback hook/ })
      .getByText("Disabled")
      .waitFor();
    const listed = (await (await cg.gw.api("/api/v1/observability/destinations")).json()) as {
      data: Array<{ name: string; enabled: boolean; sampling_rate: number }>;
    };
    expect(listed.data.map((d) => [d.name, d.enabled, d.sampling_rate])).toEqual([["loopback hook", false, 0.5]]);
    await page.screenshot({ path: join(SHOTS, "observability-admin-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 375, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    await page.screenshot({ path: join(SHOTS, "observability-admin-375.png"), fullPage: true });
    await page.getByRole("button", { name: "New destination" }).click();
    await page.getByRole("form", { name: "New destination" }).getByLabel("Type").selectOption("s3");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    await page.screenshot({ path: join(SHOTS, "observability-form-admin-375.png"), fullPage: true });
    await page.close();
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "a member reads their workspace's destinations and cannot change them",
  async () => {
    const made = await cg.gw.api("/api/v1/observability/destinations?skip_test=true", {
      method: "POST",
      json: { type: "webhook", name: "team hook", workspace_id: cg.team, config: { url: `${receiver.url}/team` } },
    });
    expect(made.status).toBe(201);
    const page = await signedIn("member", 375);
    await visit(page, "observability", "Observability destinations");
    await page
      .getByRole("row", { name: /team hook/ })
      .getByText("Enabled")
      .waitFor();
    await page.getByText("Read-only: only organization owners and admins change destinations.").waitFor();
    expect(await page.getByRole("button", { name: /New destination|Edit|Disable|Delete/ }).count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, "observability-member-375.png"), fullPage: true });
    await page.close();
    // the server refuses what the page hides
    const id = ((await made.json()) as { data: { id: string } }).data.id;
    expect((await cg.call("member", "PATCH", `/console/api/destinations/${id}`, { enabled: false })).status).toBe(403);
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "a member sees their own keys and their workspace, and no manager pages",
  async () => {
    await cg.gw.api("/api/v1/keys", { method: "POST", json: { name: "someone else's key" } });
    const page = await signedIn("member");
    const nav = page.getByRole("navigation", { name: "Console pages" });
    await expect(nav.getByRole("link").allTextContents()).resolves.toEqual([
      "Overview",
      "Keys",
      "Generations",
      "Models",
      "Playground",
      "Workspaces",
      "BYOK",
      "Presets",
      "Guardrails",
      "Cache",
      "Observability",
      "Jobs",
    ]);
    await visit(page, "keys", "API keys");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByLabel("Name").fill("member key");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.locator("[data-copy-source]").waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    const names = await page.locator("table.keys tbody tr td:first-child").allTextContents();
    expect(names).toEqual(["member key"]);
    await visit(page, "workspaces", "Workspaces");
    await expect(page.getByRole("navigation", { name: "Workspaces" }).getByRole("button").allTextContents()).resolves.toEqual(["Team"]);
    expect(await page.getByRole("button", { name: "Create workspace" }).count()).toBe(0);
    await visit(page, "jobs", "Jobs");
    expect(await page.getByRole("heading", { name: "Dead jobs" }).count()).toBe(0);
    await page.close();
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "every page, at 1280 and 375 px, for a manager and a member, with no errors",
  async () => {
    for (const [who, width] of [
      ["owner", 1280],
      ["owner", 375],
      ["member", 375],
    ] as const) {
      const page = await signedIn(who, width);
      for (const route of who === "member" ? PAGES : [...PAGES, "people"]) {
        const heading = {
          overview: "Overview",
          keys: "API keys",
          generations: "Generations",
          models: "Models and providers",
          playground: "Playground",
          people: "People",
          workspaces: "Workspaces",
          byok: "BYOK credentials",
          presets: "Presets",
          guardrails: "Guardrails",
          cache: "Response cache",
          observability: "Observability destinations",
          jobs: "Jobs",
        }[route]!;
        await visit(page, route, heading);
        // nothing wider than the window at 375 px
        if (width === 375) expect({ route, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ route, width: 375 });
        await page.screenshot({ path: join(SHOTS, `${route}-${who}-${width}.png`), fullPage: true });
      }
      // the keyboard reaches the navigation first (after the skip link); on a narrow screen its Menu button
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(width === 375 ? "Menu" : "Overview");
      await page.close();
    }
    expect(problems).toEqual([]);
  },
  120_000,
);
