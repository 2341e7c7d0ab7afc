// The console's second version in headless Chromium (Debian's; skipped without one): each test is
// one item of what misled or was missing, asserting what a person sees, at 1280 and at 375 px,
// with a screenshot of each page under test/artifacts/console/ (v2-*). No page may log an error.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { type HttpRecorder, startHttpRecorder } from "../../support/http-recorder";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { until } from "../../support/until";
import { gatewayYaml, MODEL } from "../inference/harness";
import { CHROMIUM, pageWidth, SHOTS, screenshotter, signedIn as signedInAs, visit as visitPage } from "./browser-session";
import { type ConsoleGateway, type Person, startConsoleGateway } from "./harness";

const WIDTHS = [1280, 375] as const;
let up: MockUpstream;
let receiver: HttpRecorder;
let cg: ConsoleGateway;
let browser: Browser;
let defaultWs: string;
const problems: string[] = [];

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(SHOTS, { recursive: true });
  up = await startMockUpstream();
  receiver = startHttpRecorder();
  // one job worker: observability destinations are delivered by it
  cg = await startConsoleGateway({ yaml: `${gatewayYaml(up.url)}jobs: { poll_seconds: 1 }\n`, env: { WORKERS: "1" } });
  defaultWs = ((await (await cg.gw.api("/api/v1/workspaces/default")).json()) as { data: { id: string } }).data.id;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 60_000);
afterAll(async () => {
  if (!CHROMIUM) return;
  await browser?.close();
  await cg.close();
  await up.stop();
  await receiver.stop();
});

const signedIn = (who: Person, width: number, email?: string): Promise<Page> => signedInAs(browser, cg, who, problems, width, email);
const visit = (page: Page, route: string, heading: string) => visitPage(page, cg, route, heading);
const shot = screenshotter("v2-");

async function keyOf(body: Record<string, unknown>): Promise<{ key: string; hash: string }> {
  const res = await cg.gw.api("/api/v1/keys", { method: "POST", json: body });
  const json = (await res.json()) as { key: string; data: { hash: string } };
  return { key: json.key, hash: json.data.hash };
}

/** a chat through the API with `key` (the mock reports `usage`), asking for at most `maxTokens`; its status */
async function chat(key: string, usage = { input: 3, output: 2 }, maxTokens?: number): Promise<number> {
  // the mock's answer when nothing is queued: a refused request takes no turn, so none is left behind for a later test
  up.setHandler(() => ({ text: ["hi"], usage }));
  const res = await cg.gw.api("/api/v1/chat/completions", {
    key,
    method: "POST",
    json: { model: MODEL["openai-chat"], messages: [{ role: "user", content: "hi" }], ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }) },
  });
  await res.text();
  return res.status;
}

test.skipIf(!CHROMIUM)(
  "Models lists what /models lists, hides the rest behind 'Show unavailable' with a 'No key' badge, and shows ids as clients send them",
  async () => {
    const listed = ((await (await cg.gw.api("/api/v1/models")).json()) as { data: Array<{ id: string }> }).data.map((m) => m.id);
    const catalog = ((await (await cg.call("owner", "GET", "/console/api/models")).json()) as { data: Array<{ id: string; available: boolean }> }).data;
    const unavailable = catalog.filter((m) => !m.available);
    expect(unavailable.length).toBeGreaterThan(100);
    const keyless = unavailable.find((m) => m.id.startsWith("openai/"))!.id;
    const keylessListed = catalog
      .filter((m) => m.available)
      .flatMap((m) => (m as unknown as { endpoints: Array<{ has_key: boolean }> }).endpoints)
      .filter((e) => !e.has_key).length;
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      await visit(page, "models", "Models and providers");
      await page.getByText(`${listed.length} models can serve · ${unavailable.length} more without a key`).waitFor();
      // innerText applies CSS text-transform: the ids read exactly as the API lists them
      expect((await page.locator("th.model-id").allInnerTexts()).sort()).toEqual([...listed].sort());
      // a gateway.yaml model is listed even when its provider has no credential (the harness's Vertex one): its endpoints say so
      expect(await page.getByText("No key", { exact: true }).count()).toBe(keylessListed);
      await page.getByLabel("Show unavailable").check();
      await page.getByLabel("Search models").fill(keyless);
      const row = page.locator("tr", { has: page.locator("th.model-id", { hasText: keyless }) }).first();
      await row.getByText("No key", { exact: true }).waitFor();
      expect(await row.locator("th.model-id").innerText()).toBe(keyless);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "models-unavailable", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "the workspace page has the broadcast and I/O-logging switches; Observability warns while broadcast is off, the first destination offers to turn it on, and it then receives",
  async () => {
    const page = await signedIn("owner", 1280);
    await visit(page, "workspaces", "Workspaces");
    await page.getByRole("navigation", { name: "Workspaces" }).getByRole("button", { name: "Default", exact: true }).click();
    const broadcast = page.getByLabel("Forward generations to the workspace's observability destinations");
    const ioLogging = page.getByLabel("Keep prompts and completions");
    expect(await broadcast.isChecked()).toBe(false);
    expect(await ioLogging.isChecked()).toBe(false);
    await ioLogging.check();
    await until(
      "I/O logging on",
      async () => ((await (await cg.gw.api(`/api/v1/workspaces/${defaultWs}`)).json()) as any).data.is_observability_io_logging_enabled || undefined,
      5000,
    );
    await shot(page, "workspace-switches", 1280);

    await visit(page, "observability", "Observability destinations");
    await page.getByText("Broadcast is off for Default, so its destinations receive no generations.").waitFor();
    await page.getByRole("button", { name: "New destination" }).click();
    const form = page.getByRole("form", { name: "New destination" });
    await form.getByLabel("Name", { exact: true }).fill("traces");
    await form.getByLabel("URL", { exact: true }).fill(`${receiver.url}/traces`);
    await form.getByRole("button", { name: "Create" }).click();
    await page.getByText("“traces” will receive nothing yet: Broadcast is off for Default, so its destinations receive no generations.").waitFor();
    await shot(page, "observability-offer", 1280);
    await page.getByRole("button", { name: "Turn on broadcast for Default" }).click();
    await page.getByText("Broadcast is off for Default").waitFor({ state: "detached" });
    const ws = ((await (await cg.gw.api(`/api/v1/workspaces/${defaultWs}`)).json()) as any).data;
    expect(ws.is_observability_broadcast_enabled).toBe(true);

    // and the destination does receive: a generation of the workspace reaches it
    receiver.reset();
    const { key } = await keyOf({ name: "traced" });
    expect(await chat(key)).toBe(200);
    const [delivered] = await receiver.waitFor(1, 15_000);
    expect([delivered!.method, delivered!.path]).toEqual(["POST", "/traces"]);
    await page.close();

    // at 375 px: the Team workspace's switches, and the warning of its destinations page
    const narrow = await signedIn("owner", 375);
    await visit(narrow, "workspaces", "Workspaces");
    await narrow.getByRole("navigation", { name: "Workspaces" }).getByRole("button", { name: "Team", exact: true }).click();
    await narrow.getByRole("group", { name: "Observability switches" }).waitFor();
    expect(await pageWidth(narrow)).toBe(375);
    await shot(narrow, "workspace-switches", 375);
    await visit(narrow, "observability", "Observability destinations");
    await narrow.getByLabel("Workspace").selectOption({ label: "Team" });
    await narrow.getByText("Broadcast is off for Team, so its destinations receive no generations.").waitFor();
    expect(await pageWidth(narrow)).toBe(375);
    await shot(narrow, "observability-warning", 375);
    await narrow.close();
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "people: invite a colleague (the link shown once) who signs up with it, change a role, remove someone, and sign out from the header",
  async () => {
    for (const width of WIDTHS) {
      const email = `colleague-${width}@example.com`;
      const page = await signedIn("owner", width);
      await visit(page, "people", "People");
      const form = page.getByRole("form", { name: "Invite a colleague" });
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Name").fill(`Colleague ${width}`);
      await form.getByLabel("Workspace").selectOption({ label: "Team" });
      await form.getByRole("button", { name: "Invite" }).click();
      const link = (await page.locator("[data-copy-source]").textContent())!;
      expect(link).toMatch(/\/invite\?token=/);
      await shot(page, "people-invited", width);

      // the colleague follows the link and chooses a password: they are in, in Team
      const colleague = await browser.newPage({ viewport: { width, height: 900 } });
      await colleague.goto(link);
      await colleague.getByLabel("New password").fill("colleague password 123");
      await colleague.getByLabel("Repeat the password").fill("colleague password 123");
      await colleague.getByRole("button").click();
      await colleague.goto(`${cg.gw.url}/console`);
      await colleague.getByRole("heading", { name: "Overview" }).waitFor();
      await colleague.close();

      await page.reload();
      await page.getByRole("heading", { name: "People", exact: true }).waitFor();
      const row = page.getByRole("row", { name: new RegExp(email) });
      await row.getByText("Active").waitFor();
      expect(await row.textContent()).toContain("Team");
      await row.getByLabel(`Role of ${email}`).selectOption("admin");
      await until("role changed", async () => (await cg.gw.ctx.store.users.findByEmail(email))[0]?.role === "admin" || undefined, 5000);
      await row.getByRole("button", { name: `Remove ${email}` }).click();
      await row.waitFor({ state: "detached" });
      expect(await cg.gw.ctx.store.users.findByEmail(email)).toEqual([]);
      expect(await pageWidth(page)).toBe(width);

      // sign out: at 375 px the header folds the navigation and the button behind Menu
      const header = await page.locator("header.top").boundingBox();
      if (width === 375) {
        expect(header!.height).toBeLessThanOrEqual(80);
        expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(false);
        await page.getByRole("button", { name: "Menu" }).click();
      }
      await shot(page, "header-menu", width);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/login/);
      await page.goto(`${cg.gw.url}/console`);
      expect(new URL(page.url()).pathname).toBe("/login");
      await page.close();
    }
  },
  120_000,
);

test.skipIf(!CHROMIUM)(
  "refusals are visible: the log filters them, the overview counts 402s and 429s per key, and a key with less left than a typical request reads 'Limit reached'",
  async () => {
    // a limit of $0.00002; a request with max_tokens 1 may cost up to $0.000012 (10 prompt tokens at most, 1 completion token)
    // and costs $0.000012 here: after one, $0.000008 is left, less than a typical request, and the next is refused
    const spent = await keyOf({ name: "spent key", limit: 0.00002 });
    const usage = { input: 10, output: 1 };
    expect(await chat(spent.key, usage, 1)).toBe(200);
    expect(await chat(spent.key, usage, 1)).toBe(402);
    const throttled = await keyOf({ name: "throttled key", rate_limit: { rpm: 1 } });
    if (new Date().getUTCSeconds() >= 55) await Bun.sleep(6_000);
    expect(await chat(throttled.key)).toBe(200);
    expect(await chat(throttled.key)).toBe(429);
    expect(await chat("sk-gw-v1-not-a-key")).toBe(401);
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      const card = page.getByRole("region", { name: "Refused requests, last 30 days" });
      await card.getByText("402 · Limit or budget reached").waitFor();
      expect(await card.getByRole("row", { name: /spent key/ }).innerText()).toMatch(/spent key\s+1\s+0/);
      expect(await card.getByRole("row", { name: /throttled key/ }).innerText()).toMatch(/throttled key\s+0\s+1/);
      await shot(page, "overview-refusals", width);

      await visit(page, "keys", "API keys");
      const row = page.getByRole("row", { name: /spent key/ });
      expect(await row.getByText("Limit reached").count()).toBeGreaterThan(0);
      await shot(page, "keys-limit-reached", width);

      await visit(page, "generations", "Generations");
      if (width === 375) await page.getByText("Filters", { exact: true }).click();
      await page.getByLabel("Status").selectOption("refused");
      await page.getByLabel("Refused with").selectOption("402");
      await page.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/status=refused/);
      const refusals = page.locator("table.refusals tbody tr");
      await refusals.first().getByText("402 key_limit_reached").waitFor();
      expect(await refusals.count()).toBe(1);
      expect(await refusals.first().innerText()).toContain("spent key");
      expect(await refusals.first().innerText()).toContain("This request could cost up to more than");
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "log-refused", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "names, not identifiers: keys and workspaces named in the log and a generation's page; the management key badged and offered nowhere it cannot act; rate limits in the keys table",
  async () => {
    const team = await (await cg.gw.api(`/api/v1/workspaces/${cg.team}`)).json();
    const named = await keyOf({ name: "named key", workspace_id: cg.team, rate_limit: { rpm: 60 } });
    expect(await chat(named.key)).toBe(200);
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      await visit(page, "keys", "API keys");
      const admin = page.getByRole("row", { name: /GATEWAY_ADMIN_KEY/ });
      await admin.getByText("Management").waitFor();
      expect(await admin.getByRole("button").count()).toBe(0);
      expect(await page.getByRole("row", { name: /named key/ }).innerText()).toContain("60 rpm");
      await shot(page, "keys-names", width);

      await visit(page, "generations", "Generations");
      if (width === 375) await page.getByText("Filters", { exact: true }).click();
      const keyOptions = await page.getByLabel("Key").locator("option").allTextContents();
      expect(keyOptions).toContain("named key");
      expect(keyOptions.some((o) => o.includes("GATEWAY_ADMIN_KEY"))).toBe(false);
      await page.getByLabel("Key").selectOption({ label: "named key" });
      await page.getByRole("button", { name: "Apply filters" }).click();
      const row = page.locator("table.generations tbody tr").first();
      await row.getByText("named key").waitFor();
      await row.getByRole("link").click();
      await page.getByRole("heading", { name: /^Generation gen-/ }).waitFor();
      const record = await page.locator("dl.record").innerText();
      expect(record).toContain("named key");
      expect(record).toContain("Team");
      const html = await page.content();
      expect(html).not.toContain(named.hash);
      expect(html).not.toContain((team as { data: { id: string } }).data.id);
      await shot(page, "generation-names", width);

      await visit(page, "playground", "Playground");
      const offered = await page.getByLabel("Key").locator("option").allTextContents();
      expect(offered).toContain("named key");
      expect(offered.some((o) => o.includes("GATEWAY_ADMIN_KEY"))).toBe(false);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "charts: spend, requests, tokens, latency and error rate over time, all together or per model, key and provider, with a range picker",
  async () => {
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      const activity = page.getByRole("region", { name: /Activity, last/ });
      await activity.getByRole("heading", { name: "Activity, last 30 days" }).waitFor();
      expect(await activity.locator("figcaption").allTextContents()).toEqual(["Spend", "Requests", "Tokens", "Latency", "Error rate"]);
      expect(await activity.locator(".chart canvas").count()).toBe(5);
      // one metric per chart: spend and requests no longer share one
      expect(await activity.getByRole("img", { name: "Spend over the last 30 days" }).locator(".u-series").count()).toBe(2);
      expect(await activity.getByRole("img", { name: "Latency over the last 30 days" }).locator(".u-series th").allTextContents()).toEqual([
        "Time",
        "p50",
        "p95",
      ]);
      await activity.getByRole("button", { name: "24 hours" }).click();
      await activity.getByRole("heading", { name: "Activity, last 24 hours" }).waitFor();
      await activity.getByLabel("Lines").selectOption("api_key_id");
      const table = activity.locator("table.breakdown");
      await table.getByRole("rowheader", { name: "named key" }).waitFor();
      expect(await table.getByRole("rowheader", { name: "spent key" }).count()).toBe(1);
      // the chart draws its lines after the table: wait for its legend before reading it
      const spendPerKey = activity.getByRole("img", { name: /^Spend per key/ });
      await spendPerKey.locator(".u-series th", { hasText: "named key" }).first().waitFor();
      expect(await spendPerKey.locator(".u-series th").allTextContents()).toContain("named key");
      await activity.getByLabel("Lines").selectOption("provider");
      await table.getByRole("rowheader", { name: "oc" }).waitFor();
      await activity.getByLabel("Lines").selectOption("model");
      await table.getByRole("rowheader", { name: MODEL["openai-chat"] }).waitFor();
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "overview-charts", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "the generations view keeps its filters in the address and exports what they select as CSV",
  async () => {
    for (let i = 0; i < 4; i++) expect(await chat((await keyOf({ name: `export key ${i}` })).key)).toBe(200);
    const wanted = (
      (await (await cg.call("owner", "GET", `/console/api/generations?model=${encodeURIComponent(MODEL["openai-chat"])}&limit=100`)).json()) as {
        data: unknown[];
      }
    ).data.length;
    expect(wanted).toBeGreaterThan(3);
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      await visit(page, "generations", "Generations");
      const details = page.locator("details.filters-details");
      // the filters are folded away at first on a narrow screen
      expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(width !== 375);
      if (width === 375) await page.getByText("Filters", { exact: true }).click();
      await page.getByLabel("Model").fill(MODEL["openai-chat"]);
      await page.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/model=t%2Fchat/);
      await page.reload();
      await page.getByRole("heading", { name: "Generations", exact: true }).waitFor();
      if (width === 375) await page.getByText("Filters", { exact: true }).click();
      expect(await page.getByLabel("Model").inputValue()).toBe(MODEL["openai-chat"]);
      await page.locator("table.generations tbody tr").first().waitFor();
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Export CSV" }).click();
      const csv = await Bun.file((await (await download).path())!).text();
      const lines = csv.trimEnd().split("\r\n");
      expect(lines[0]).toBe("created_at,id,model,provider,status,key,workspace,tokens_prompt,tokens_completion,cost_usd,latency_ms,finish_reason");
      expect(lines.length - 1).toBe(wanted);
      expect(lines.slice(1).every((l) => l.split(",")[2] === MODEL["openai-chat"])).toBe(true);
      expect(csv).toContain("named key");
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "log-filtered", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "the Playground: a model and one of your keys, the answer streaming in, its cost, and its generation",
  async () => {
    await keyOf({ name: "play key" });
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      await visit(page, "playground", "Playground");
      await page.getByLabel("Model").selectOption(MODEL["openai-chat"]);
      await page.getByLabel("Key").selectOption({ label: "play key" });
      await page.getByLabel("Prompt").fill("Say hello");
      up.enqueue({ text: ["Hello ", "from the ", "playground"], usage: { input: 5, output: 7 }, chunkDelayMs: 50 });
      await page.getByRole("button", { name: "Send" }).click();
      const answer = page.getByRole("region", { name: "Answer" });
      await answer.getByText("Hello from the playground").waitFor();
      // 5 prompt tokens at $1e-6 and 7 completion tokens at $2e-6
      await answer.getByText(/Cost \$0\.000019/).waitFor();
      expect(await answer.locator(".answer-facts").innerText()).toContain("5 prompt and 7 completion tokens");
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "playground", width);
      await answer.getByRole("link", { name: "Open its generation" }).click();
      await page.getByRole("heading", { name: /^Generation gen-/ }).waitFor();
      expect(await page.locator("dl.record").innerText()).toContain("play key");
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "at 375 px the header is one line with a Menu button, tables scroll instead of breaking ids, forms fold away; at 1280 px the navigation shows",
  async () => {
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      const header = (await page.locator("header.top").boundingBox())!;
      const nav = page.getByRole("navigation", { name: "Console pages" });
      if (width === 375) {
        expect(header.height).toBeLessThanOrEqual(80);
        expect(await nav.isVisible()).toBe(false);
        await page.getByRole("button", { name: "Menu" }).click();
        await nav.getByRole("link", { name: "Models" }).click();
        await nav.waitFor({ state: "hidden" });
      } else {
        expect(await page.getByRole("button", { name: "Menu" }).isVisible()).toBe(false);
        expect(await nav.isVisible()).toBe(true);
        await nav.getByRole("link", { name: "Models" }).click();
      }
      await page.getByRole("heading", { name: "Models and providers" }).waitFor();
      await page.getByLabel("Show unavailable").check();
      // every id stays on one line (its text makes one box); its table scrolls sideways, the page does not
      const lines = await page.locator("th.model-id").evaluateAll((ids) =>
        ids.map((e) => {
          const range = document.createRange();
          range.selectNodeContents(e);
          return range.getClientRects().length;
        }),
      );
      expect(lines.length).toBeGreaterThan(100);
      expect(lines.filter((n) => n !== 1)).toEqual([]);
      expect(await pageWidth(page)).toBe(width);
      if (width === 375)
        expect(
          await page
            .locator(".table-wrap")
            .first()
            .evaluate((w) => w.scrollWidth > w.clientWidth),
        ).toBe(true);
      await shot(page, "models-narrow", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "a key's Rotate button shows its new secret once; both secrets work during the grace",
  async () => {
    for (const width of WIDTHS) {
      const name = `rotated ${width}`;
      const old = await keyOf({ name });
      const page = await signedIn("owner", width);
      await visit(page, "keys", "API keys");
      await page.getByRole("button", { name: `Rotate ${name}` }).click();
      await page.getByRole("heading", { name: `New secret of “${name}”` }).waitFor();
      const raw = (await page.locator("[data-copy-source]").textContent())!;
      expect(raw).toMatch(/^sk-gw-v1-/);
      expect(raw).not.toBe(old.key);
      await page.getByText("The old secret keeps working for a day, then stops.").waitFor();
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "keys-rotated", width);
      await page.getByRole("button", { name: "Done" }).click();
      expect(await page.locator("[data-copy-source]").count()).toBe(0);
      expect(await chat(raw)).toBe(200);
      expect(await chat(old.key)).toBe(200);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "a key past one of its budget alerts shows a notice on the overview",
  async () => {
    // $0.0001 a day, an alert at 50 %: one request of 30 prompt and 10 completion tokens spends $0.00005
    const { key } = await keyOf({ name: "alerting key", limit: 0.0001, limit_reset: "daily", alert_thresholds: [0.5] });
    expect(await chat(key, { input: 30, output: 10 }, 10)).toBe(200);
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      const notices = page.getByRole("region", { name: "Budget alerts" });
      await notices.getByText(/Key “alerting key” has spent 50% of its daily limit/).waitFor();
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "overview-alert", width);
      await page.close();
    }
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "/docs shows the API reference without the hosted product's buttons",
  async () => {
    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${cg.gw.url}/docs`);
      await page.waitForFunction(() => document.body.innerText.includes("Model Gateway API"), undefined, { timeout: 15_000 });
      const text = await page.evaluate(() => document.body.innerText);
      for (const hosted of ["Ask AI", "Generate MCP", "Developer Tools", "Open API Client"])
        expect({ hosted, shown: text.includes(hosted) }).toEqual({ hosted, shown: false });
      await page.screenshot({ path: join(SHOTS, `v2-docs-${width}.png`) });
      await page.close();
    }
  },
  60_000,
);

test.skipIf(!CHROMIUM)("no console page logged an error", () => {
  expect(problems).toEqual([]);
});
