// The console's Guardrails and Response cache pages in headless Chromium (Debian's; skipped without
// one), at 1280 and 375 px, as a person uses them: a guardrail created, edited and assigned to a key
// in the page, named on the Keys page, and then refusing that key's requests through the API; the
// cache's count, its purge to 0, and what the page says once gateway.yaml turns the cache off.
// Screenshots under test/artifacts/console/ (guard-*); no page may log an error or overflow.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { loadConfig } from "../../../src/config";
import { ADMIN_KEY } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { gatewayYaml, MODEL } from "../inference/harness";
import { CHROMIUM, pageWidth, SHOTS, screenshotter, signedIn as signedInAs, visit as visitPage } from "./browser-session";
import { type ConsoleGateway, type Person, startConsoleGateway } from "./harness";

const WIDTHS = [1280, 375] as const;
const CACHE_ON = "response_cache: { enabled: true, ttl_seconds: 600, default: on }\n";
let up: MockUpstream;
let cg: ConsoleGateway;
let browser: Browser;
const problems: string[] = [];
const dialogs: string[] = [];

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(SHOTS, { recursive: true });
  up = await startMockUpstream();
  cg = await startConsoleGateway({ yaml: `${gatewayYaml(up.url)}${CACHE_ON}` });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 60_000);
afterAll(async () => {
  if (!CHROMIUM) return;
  await browser?.close();
  await cg.close();
  await up.stop();
});

async function signedIn(who: Person, width: number): Promise<Page> {
  const page = await signedInAs(browser, cg, who, problems, width);
  page.on("dialog", (d) => dialogs.push(d.message()));
  return page;
}
const visit = (page: Page, route: string, heading: string) => visitPage(page, cg, route, heading);
const shot = screenshotter("guard-");

async function keyOf(name: string): Promise<{ key: string; hash: string }> {
  const res = await cg.gw.api("/api/v1/keys", { method: "POST", json: { name } });
  const json = (await res.json()) as { key: string; data: { hash: string } };
  return { key: json.key, hash: json.data.hash };
}

/** a chat through the API with `key`; its status and error message */
async function chat(key: string, model: string, content: string): Promise<{ status: number; message: string | null }> {
  up.setHandler(() => ({ text: ["hi"], usage: { input: 3, output: 2 } }));
  const res = await cg.gw.api("/api/v1/chat/completions", { key, method: "POST", json: { model, messages: [{ role: "user", content }] } });
  const body = (await res.json()) as { error?: { message: string } };
  return { status: res.status, message: body.error?.message ?? null };
}

test.skipIf(!CHROMIUM)(
  "a guardrail created, edited and assigned to a key in the page is named on the Keys page and refuses that key's requests through the API",
  async () => {
    for (const width of WIDTHS) {
      const { key, hash } = await keyOf(`browser key ${width}`);
      expect((await chat(key, MODEL["openai-responses"], "before")).status).toBe(200);
      const page = await signedIn("owner", width);
      if (width === 1280) {
        const nav = page.getByRole("navigation", { name: "Console pages" });
        await nav.getByRole("link", { name: "Guardrails", exact: true }).click();
        await page.getByRole("heading", { name: "Guardrails", exact: true }).waitFor();
        expect(await nav.getByRole("link", { name: "Cache", exact: true }).getAttribute("href")).toBe("#/cache");
      } else await visit(page, "guardrails", "Guardrails");
      await page.getByRole("region", { name: "Default guardrail" }).getByRole("heading", { name: "Default guardrail of Default" }).waitFor();

      // create
      await page.getByRole("button", { name: "New guardrail" }).click();
      const create = page.getByRole("form", { name: "New guardrail" });
      await create.getByLabel("Name", { exact: true }).fill(`Only chat ${width}`);
      // the management API sets a budget with its window: the form asks for it before sending
      await create.getByLabel("Budget (USD)").fill("5");
      await create.getByRole("button", { name: "Create" }).click();
      expect(await create.getByLabel("Budget resets").evaluate((el) => (el as HTMLSelectElement).validity.valueMissing)).toBe(true);
      expect(await page.getByText(`Guardrail “Only chat ${width}” created`).count()).toBe(0);
      await create.getByLabel("Budget resets").selectOption("monthly");
      await create.getByLabel("Allowed models").fill(MODEL["openai-chat"]);
      await create.getByRole("button", { name: "Create" }).click();
      await page.getByText(`Guardrail “Only chat ${width}” created`).waitFor();
      const row = () => page.locator("table.guardrails tbody tr", { hasText: `${width}` });
      await row().getByText(`Models: ${MODEL["openai-chat"]}`).waitFor();
      expect(await row().getByText("$5.00 monthly").count()).toBe(1);
      await shot(page, "created", width);

      // edit: a new name, e-mail addresses blocked
      await page.getByRole("button", { name: `Edit Only chat ${width}` }).click();
      const edit = page.getByRole("form", { name: `Edit Only chat ${width}` });
      expect(await edit.getByLabel("Allowed models").inputValue()).toBe(MODEL["openai-chat"]);
      await edit.getByLabel("Name", { exact: true }).fill(`Chat without e-mail ${width}`);
      await edit.getByLabel("Email addresses").selectOption("block");
      await shot(page, "edit-form", width);
      await edit.getByRole("button", { name: "Save" }).click();
      await page.getByText(`Guardrail “Chat without e-mail ${width}” saved`).waitFor();
      await row().getByText("Email addresses: block").waitFor();
      expect(await row().locator("th").first().innerText()).toBe(`Chat without e-mail ${width}`);

      // assign it to the key
      await page.getByRole("button", { name: `Assign Chat without e-mail ${width}` }).click();
      const panel = page.getByRole("region", { name: `Assignments of Chat without e-mail ${width}` });
      await panel.getByLabel("Assign a key").selectOption(hash);
      await panel.getByRole("button", { name: "Assign key" }).click();
      await panel.getByRole("button", { name: `Unassign key browser key ${width}` }).waitFor();
      await row().getByText(`key browser key ${width}`).waitFor();
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "assigned", width);

      // the workspace's default guardrail: edited in place, its name its workspace's
      if (width === 1280) {
        await page.getByRole("button", { name: "Done" }).click();
        await page.getByRole("button", { name: "Edit the default guardrail" }).click();
        const form = page.getByRole("form", { name: "Edit Default guardrail of Default" });
        expect(await form.getByLabel("Name", { exact: true }).count()).toBe(0);
        await form.getByLabel("Ignored providers").fill("az");
        await form.getByRole("button", { name: "Save" }).click();
        await page.getByText("Guardrail “Default guardrail of Default” saved").waitFor();
        await page.getByRole("region", { name: "Default guardrail" }).getByText("Not providers: az").waitFor();
        await shot(page, "default-edited", width);
      }

      // the Keys page names it on the key's row
      await visit(page, "keys", "API keys");
      const keyRow = page.locator("table.keys tbody tr", { hasText: `browser key ${width}` });
      expect(await keyRow.getByRole("link", { name: `Chat without e-mail ${width}` }).getAttribute("href")).toBe("#/guardrails");
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "keys", width);
      await page.close();

      // and the API refuses what it forbids, naming it
      expect(await chat(key, MODEL["openai-responses"], "other model")).toEqual({
        status: 404,
        message: `No endpoints available matching your guardrail restrictions and data policy: guardrail 'Chat without e-mail ${width}' does not allow model ${MODEL["openai-responses"]}`,
      });
      up.reset();
      const blocked = await chat(key, MODEL["openai-chat"], "write to alice@example.com");
      expect(blocked.status).toBe(403);
      expect(blocked.message).toStartWith("Request blocked by content filter: ");
      expect(up.requests.length).toBe(0);
      expect((await chat(key, MODEL["openai-chat"], "no address here")).status).toBe(200);
    }
  },
  120_000,
);

test.skipIf(!CHROMIUM)(
  "a member's row on the workspace page names their guardrail; the member sees the guardrails of their workspace, and no button that changes them",
  async () => {
    const made = await cg.gw.api("/api/v1/guardrails", { method: "POST", json: { name: "Team policy", workspace_id: cg.team, ignored_providers: ["az"] } });
    expect(made.status).toBe(201);
    // the member assigned in the page, in the Team workspace
    const assigning = await signedIn("owner", 1280);
    await visit(assigning, "guardrails", "Guardrails");
    await assigning.getByLabel("Workspace").selectOption({ label: "Team" });
    await assigning.getByRole("button", { name: "Assign Team policy" }).click();
    const panel = assigning.getByRole("region", { name: "Assignments of Team policy" });
    await panel.getByLabel("Assign a member").selectOption({ label: "member@example.com" });
    await panel.getByRole("button", { name: "Assign member" }).click();
    await panel.getByRole("button", { name: "Unassign member member@example.com" }).waitFor();
    await assigning.close();
    for (const width of WIDTHS) {
      const owner = await signedIn("owner", width);
      await visit(owner, "workspaces", "Workspaces");
      await owner.getByRole("navigation", { name: "Workspaces" }).getByRole("button", { name: "Team", exact: true }).click();
      const memberRow = owner.getByRole("region", { name: "Workspace Team" }).locator("tr", { hasText: "member@example.com" });
      expect(await memberRow.getByRole("link", { name: "Team policy" }).getAttribute("href")).toBe("#/guardrails");
      expect(await pageWidth(owner)).toBe(width);
      await shot(owner, "workspace-members", width);
      await owner.close();

      const page = await signedIn("member", width);
      await visit(page, "guardrails", "Guardrails");
      await page.getByRole("heading", { name: "Default guardrail of Team" }).waitFor();
      await page.getByText("Organization owners and admins change guardrails").waitFor();
      const row = page.locator("table.guardrails tbody tr", { hasText: "Team policy" });
      await row.getByText("Not providers: az").waitFor();
      await row.getByText("member@example.com").waitFor();
      expect(await page.getByRole("button", { name: "New guardrail" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Edit the default guardrail" }).count()).toBe(0);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "member", width);
      await page.close();
    }
  },
);

test.skipIf(!CHROMIUM)(
  "the cache page shows the workspace's entries and gateway.yaml's settings; Purge, confirmed, empties it to 0; with the cache off it says how to turn it on",
  async () => {
    const { key } = await keyOf("cached");
    for (const width of WIDTHS) {
      for (const q of ["one", "two", "three"]) expect((await chat(key, MODEL["openai-chat"], `cache ${q} ${width}`)).status).toBe(200);
      // the Default workspace's entries: these three and the answers of the guardrail test's keys
      const held = ((await (await cg.call("owner", "GET", "/console/api/cache?workspace_id=default")).json()) as { data: { entries: number } }).data.entries;
      expect(held).toBeGreaterThanOrEqual(3);
      const page = await signedIn("owner", width);
      await visit(page, "cache", "Response cache");
      const entries = page.getByTestId("cache-entries");
      expect(await entries.innerText()).toBe(String(held));
      await page.getByText("Enabled", { exact: true }).waitFor();
      await page.getByText("600 s").waitFor();
      await page.getByText("On: every request is cached unless it opts out").waitFor();
      await page.getByText("1.0 MB").waitFor();
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "cache", width);
      dialogs.length = 0;
      await page.getByRole("button", { name: "Purge" }).click();
      await page.getByText(`Purged ${held} entries of Default`).waitFor();
      expect(dialogs).toEqual(["Purge the response cache of Default? Every answer it keeps is deleted; the next identical requests go upstream again."]);
      await page.waitForFunction(() => document.querySelector("[data-testid=cache-entries]")?.textContent === "0");
      expect(await entries.innerText()).toBe("0");
      expect(((await (await cg.call("owner", "GET", "/console/api/cache?workspace_id=default")).json()) as { data: { entries: number } }).data.entries).toBe(0);
      await shot(page, "cache-purged", width);
      await page.close();
    }

    // gateway.yaml without the cache, reloaded as SIGHUP does
    const path = join(cg.gw.dir, "gateway.yaml");
    await Bun.write(path, gatewayYaml(up.url));
    const outcome = cg.gw.reload(() =>
      loadConfig({
        PORT: "0",
        DATABASE_URL: `file:${join(cg.gw.dir, "gateway.db")}`,
        GATEWAY_ADMIN_KEY: ADMIN_KEY,
        LOG_LEVEL: "error",
        GATEWAY_CONFIG: path,
        WORKERS: "0",
      }),
    );
    expect(outcome).toBeDefined();
    for (const width of WIDTHS) {
      const page = await signedIn("member", width);
      await visit(page, "cache", "Response cache");
      await page.getByText("The response cache is off: no answer is stored, and none is served from it.").waitFor();
      expect(await page.locator("pre.snippet").innerText()).toStartWith("response_cache:\n  enabled: true");
      await page.getByText("Disabled", { exact: true }).waitFor();
      expect(await page.getByRole("button", { name: "Purge" }).count()).toBe(0);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "cache-off", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)("no page logged an error", () => {
  expect(problems).toEqual([]);
});
