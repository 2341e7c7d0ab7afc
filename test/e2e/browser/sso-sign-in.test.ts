// Single sign-on in a real browser: the sign-in page's SSO button, the provider's redirect back
// (test/support/oidc-provider.ts signs the person in at once), the callback, and the console
// page the sign-in was asked for, signed in. A screenshot of the sign-in page with its button goes
// to test/artifacts/. Needs Chromium (.ci/run installs Debian's `chromium`); skipped without one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { type OidcTestProvider, startOidcProvider } from "../../support/oidc-provider";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(existsSync);
const ARTIFACTS = join(import.meta.dir, "../../artifacts");
if (!CHROMIUM) console.error("sso-sign-in.test.ts: skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)");

let idp: OidcTestProvider;
let gw: TestGateway;
let browser: Browser;

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  idp = await startOidcProvider();
  idp.login = { sub: "browser-sub", email: "grace@example.com", email_verified: true, name: "Grace Hopper", groups: ["gw-admins"] };
  gw = await startTestGateway({
    yaml: `auth:\n  oidc:\n    issuer: "${idp.url}"\n    client_id: gateway\n    client_secret: "${idp.clientSecret}"\n    role_claim: groups\n    role_mapping: { gw-admins: admin }\n`,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
}, 60_000);
afterAll(async () => {
  if (!CHROMIUM) return;
  await browser?.close();
  await gw?.close();
  await idp?.stop();
});

test.skipIf(!CHROMIUM)("the SSO button signs a person in through the provider and lands on the console page asked for", async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  // every answer on the way, the browser's own favicon request aside
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && problems.push(`${r.status()} ${r.url()}`));
  await page.goto(`${gw.url}/console`);
  expect(new URL(page.url()).pathname).toBe("/login");
  await page.screenshot({ path: join(ARTIFACTS, "sso-login-1280.png"), fullPage: true });
  await Promise.all([page.waitForURL(`${gw.url}/console`), page.click("#sso")]);
  const cookies = await page.context().cookies(gw.url);
  expect(cookies.find((c) => c.name === "gw_session")?.httpOnly).toBe(true);
  expect(cookies.find((c) => c.name === "gw_oidc")).toBeUndefined();
  const me = await page.evaluate(async () => (await fetch("/console/api/me")).json());
  expect([me.data.email, me.data.role]).toEqual(["grace@example.com", "admin"]);
  expect(problems).toEqual([]);
  await page.close();
});
