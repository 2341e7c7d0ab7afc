// The Audit and Groups pages in headless Chromium (Debian's; skipped without one), at 1280 and 375
// px: changes made in the console listed by name with their origin, filtered, the chain verified
// and an edited event named; a group mapping created, its role changed and deleted; the pages
// hidden from a member's navigation. Screenshots under test/artifacts/console/ (audit-*, groups-*);
// no page may log an error, and none may scroll sideways.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { until } from "../../support/until";
import { CHROMIUM, pageWidth, SHOTS, screenshotter, signedIn as signedInAs, visit as visitPage } from "./browser-session";
import { type ConsoleGateway, type Person, startConsoleGateway } from "./harness";

const WIDTHS = [1280, 375] as const;
const OWNER = "Owner (owner@example.com)";
let cg: ConsoleGateway;
let browser: Browser;
let scimToken = "";
const problems: string[] = [];

async function scim(path: string, body: unknown): Promise<string> {
  const res = await fetch(`${cg.gw.url}/scim/v2${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${scimToken}`, "content-type": "application/scim+json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(SHOTS, { recursive: true });
  cg = await startConsoleGateway();
  scimToken = ((await (await cg.gw.api("/api/v1/scim/tokens", { method: "POST", json: { name: "Okta" } })).json()) as { token: string }).token;
  const user = (name: string) =>
    scim("/Users", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: `${name}@example.com`, name: { givenName: name, familyName: "Lee" } });
  const [ann, ben] = [await user("ann"), await user("ben")];
  const group = (displayName: string, members: string[]) =>
    scim("/Groups", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName, members: members.map((value) => ({ value })) });
  await group("Engineering", [ann, ben]);
  await group("Design", [ben]);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 60_000);
afterAll(async () => {
  if (!CHROMIUM) return;
  await browser?.close();
  await cg.close();
});

const signedIn = (who: Person, width: number): Promise<Page> => signedInAs(browser, cg, who, problems, width);
const visit = (page: Page, route: string, heading: string) => visitPage(page, cg, route, heading);
const shot = screenshotter("");
const verified = async () => ((await (await cg.call("owner", "GET", "/console/api/audit/verify")).json()) as { data: { events: number } }).data.events;
const column = (page: Page, label: string) => page.locator(`table.audit > tbody > tr > td[data-label='${label}']`);
/** waits until the list shows only rows whose `label` cell starts with `start` (a filter applied: the old rows stay while the new load runs) */
const shownOnly = (page: Page, label: string, start: string) =>
  page.waitForFunction(
    ([label, start]) => {
      const cells = [...document.querySelectorAll(`table.audit > tbody > tr > td[data-label='${label}']`)] as HTMLElement[];
      return cells.length > 0 && cells.every((c) => c.innerText.startsWith(start!));
    },
    [label, start],
  );
/** the filters, opened when folded (at 375 px they are at first) */
async function openFilters(page: Page): Promise<void> {
  const details = page.locator("details.filters-details");
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await page.getByText("Filters", { exact: true }).click();
}

test.skipIf(!CHROMIUM)(
  "Audit: a key created and a workspace renamed in the console are listed by name with their origin, open to what changed, filter by resource and person, and the chain is verified",
  async () => {
    for (const width of WIDTHS) {
      const page = await signedIn("owner", width);
      const keyName = `audit key ${width}`;
      await visit(page, "keys", "API keys");
      await page.getByRole("button", { name: "Create key" }).click();
      await page.getByRole("region", { name: "New key" }).getByLabel("Name").fill(keyName);
      await page.getByRole("button", { name: "Create", exact: true }).click();
      const raw = (await page.locator("[data-copy-source]").textContent())!;
      expect(raw).toMatch(/^sk-gw-v1-/);
      const renamed = await cg.call("owner", "PATCH", `/console/api/workspaces/${cg.team}`, { name: `Team ${width}` });
      expect(renamed.status).toBe(200);
      // and one through the management API, by its key
      expect((await cg.gw.api("/api/v1/keys", { method: "POST", json: { name: `api key ${width}` } })).status).toBe(201);

      await visit(page, "audit", "Audit log");
      await page.getByText(`Chain verified: ${await verified()} events`).waitFor();
      const keyRow = page.getByRole("row", { name: new RegExp(`key\\.create “${keyName}”`) });
      expect(await keyRow.getByRole("cell").allInnerTexts()).toEqual([expect.any(String), OWNER, `key.create “${keyName}”`, "console", "Details"]);
      // the newest rename: an older one of the same workspace names it as it is called now too
      const wsRow = page.getByRole("row", { name: new RegExp(`workspace\\.update “Team ${width}”`) }).first();
      expect((await wsRow.getByRole("cell").allInnerTexts()).slice(1, 4)).toEqual([OWNER, `workspace.update “Team ${width}”`, "console"]);
      const apiRow = page.getByRole("row", { name: new RegExp(`key\\.create “api key ${width}”`) });
      expect((await apiRow.getByRole("cell").allInnerTexts()).slice(1, 4)).toEqual(["Admin key (GATEWAY_ADMIN_KEY)", `key.create “api key ${width}”`, "api"]);
      // names, not identifiers, in the list
      const list = await page.locator("table.audit > tbody").innerText();
      expect(list).not.toContain(cg.team);
      expect(list).not.toContain("member-user");

      await wsRow.getByRole("button", { name: /^Details of event/ }).click();
      const detail = page.locator("tr.detail-row");
      const previous = width === 1280 ? "Team" : "Team 1280";
      expect(await detail.locator("table.changes tbody tr").allInnerTexts()).toEqual([`name\t"${previous}"\t"Team ${width}"`]);
      expect(await detail.locator("dl.record").innerText()).toContain(`Team ${width}`);
      expect(await page.content()).not.toContain(raw);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "audit", width);
      await wsRow.getByRole("button", { name: /^Details of event/ }).click();
      await detail.waitFor({ state: "detached" });

      // filters: every key event, then everything the owner did
      await openFilters(page);
      await page.getByLabel("Resource").selectOption({ label: "Keys" });
      await page.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/resource=key/);
      await shownOnly(page, "What", "key.");
      expect(await column(page, "What").allInnerTexts()).toEqual([
        ...(width === 375 ? [`key.create “api key 375”`, `key.create “${keyName}”`] : []),
        `key.create “api key 1280”`,
        `key.create “audit key 1280”`,
        `key.create “Admin key (GATEWAY_ADMIN_KEY)”`,
      ]);
      await openFilters(page);
      await page.getByLabel("Resource").selectOption({ label: "Any resource" });
      await page.getByLabel("Who").selectOption({ label: OWNER });
      await page.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/actor_id=owner/);
      await shownOnly(page, "Who", OWNER);
      const who = await column(page, "Who").allInnerTexts();
      expect(who.length).toBeGreaterThan(2);
      expect(new Set(who)).toEqual(new Set([OWNER]));
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "audit-filtered", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "Audit: an event edited in the database is named by the chain's status line",
  async () => {
    const [edited] = (
      (await (await cg.call("owner", "GET", "/console/api/audit?action=key.create&limit=500")).json()) as {
        data: Array<{ id: string; target_name: string }>;
      }
    ).data.filter((e) => e.target_name === "audit key 1280");
    const seq = Number(edited!.id);
    const db = new Database(join(cg.gw.dir, "gateway.db"));
    const original = db.query<{ changes: string }, [number]>("select changes from audit_events where seq = ?").get(seq)!.changes;
    db.run("update audit_events set changes = ? where seq = ?", [original.replace('"audit key 1280"', '"quietly renamed"'), seq]);
    try {
      for (const width of WIDTHS) {
        const page = await signedIn("owner", width);
        await visit(page, "audit", "Audit log");
        const status = page.getByRole("alert");
        await status.getByText(`Chain broken at event ${seq}`).waitFor();
        expect(await status.innerText()).toMatch(
          new RegExp(
            `^Chain broken at event ${seq} \\(key\\.create “audit key 1280” by Owner \\(owner@example\\.com\\), .+\\): its hash does not match its content: the event was edited\\. ${seq - 1} events before it verified\\.$`,
          ),
        );
        // and its row in the list says so
        const marked = page.locator("table.audit tr.chain-broken");
        expect(await marked.count()).toBe(1);
        expect(await marked.locator("td[data-label='What']").innerText()).toBe("key.create “audit key 1280” chain broken here");
        expect(await pageWidth(page)).toBe(width);
        await shot(page, "audit-broken", width);
        await page.close();
      }
    } finally {
      db.run("update audit_events set changes = ? where seq = ?", [original, seq]);
      db.close();
    }
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "Groups: the groups with their members by name; a mapping created, listed, its role changed and deleted, each an audit event",
  async () => {
    const roles = async () =>
      Object.fromEntries(
        (((await (await cg.gw.api(`/api/v1/workspaces/${cg.team}/members?limit=100`)).json()) as any).data as Array<{ user_id: string; role: string }>).map(
          (m) => [m.user_id, m.role],
        ),
      );
    for (const width of WIDTHS) {
      // the first test renamed it
      const team = "Team 375";
      const page = await signedIn("admin", width);
      await visit(page, "groups", "Groups");
      const groups = page.locator("table.groups");
      expect(await groups.getByRole("row", { name: /Engineering/ }).innerText()).toContain("ann Lee, ben Lee");
      expect(await groups.getByRole("row", { name: /Design/ }).innerText()).toContain("ben Lee");
      await page.getByText("No group is mapped yet").waitFor();

      const form = page.getByRole("form", { name: "New group mapping" });
      await form.getByLabel("Group").selectOption({ label: "Engineering" });
      await form.getByLabel("Workspace").selectOption({ label: team });
      await form.getByRole("button", { name: "Create mapping" }).click();
      const row = page.locator("table.mappings tbody tr", { hasText: "Engineering" });
      await row.getByText(team).waitFor();
      await groups
        .getByRole("row", { name: /Engineering/ })
        .getByText(`${team} (member)`)
        .waitFor();
      expect(Object.values(await roles()).filter((r) => r === "member").length).toBeGreaterThanOrEqual(2);

      await row.getByLabel(`Role of Engineering → ${team}`).selectOption("admin");
      await groups
        .getByRole("row", { name: /Engineering/ })
        .getByText(`${team} (admin)`)
        .waitFor();
      expect(Object.values(await roles()).filter((r) => r === "admin").length).toBe(2);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "groups", width);

      await row.getByRole("button", { name: `Delete Engineering → ${team}` }).click();
      await row.getByRole("group", { name: /The members it added/ }).waitFor();
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "groups-delete", width);
      await row.getByRole("button", { name: "Remove them" }).click();
      await page.getByText("No group is mapped yet").waitFor();
      await until("members removed", async () => (Object.values(await roles()).includes("admin") ? undefined : true), 5000);

      // each change an event by the admin, named
      await visit(page, "audit", "Audit log");
      await openFilters(page);
      await page.getByLabel("Resource").selectOption({ label: "Group mappings" });
      await page.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/resource=scim_mapping/);
      await shownOnly(page, "What", "scim_mapping.");
      const rows = await page
        .locator("table.audit > tbody > tr")
        .evaluateAll((trs) => trs.slice(0, 3).map((tr) => [...tr.querySelectorAll("td")].slice(1, 4).map((td) => (td as HTMLElement).innerText)));
      expect(rows).toEqual([
        ["admin@example.com", `scim_mapping.delete “Engineering → ${team}”`, "console"],
        ["admin@example.com", `scim_mapping.update “Engineering → ${team}”`, "console"],
        ["admin@example.com", `scim_mapping.create “Engineering → ${team}”`, "console"],
      ]);
      await shot(page, "audit-mappings", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "a member's navigation has neither Audit nor Groups; a manager's has both",
  async () => {
    const links = async (who: Person) => {
      const page = await signedIn(who, 1280);
      const names = await page.getByRole("navigation", { name: "Console pages" }).getByRole("link").allInnerTexts();
      await page.close();
      return names;
    };
    const member = await links("member");
    expect([member.includes("Audit"), member.includes("Groups")]).toEqual([false, false]);
    expect((await links("owner")).filter((n) => n === "Audit" || n === "Groups")).toEqual(["Groups", "Audit"]);
  },
  60_000,
);

test.skipIf(!CHROMIUM)("no console page logged an error", () => {
  expect(problems).toEqual([]);
});
