// The whole PKCE flow in a real browser: an app builds the authorization URL with
// @openrouter/sdk, the person signs in and authorizes on the gateway's pages (keyboard only),
// the browser lands on the app's loopback callback with a code, the app exchanges it with the
// SDK and calls a model with the new key. Screenshots of the sign-in and consent pages at 1280
// and 375 px go to test/artifacts/ (not committed) for people to look at. Needs Chromium
// (.ci/run installs Debian's `chromium`); without one the test is skipped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { OpenRouter } from "@openrouter/sdk";
import { type Browser, chromium, type Page } from "playwright-core";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { createUserWithPassword } from "../../support/sign-in";
import { gatewayYaml, MODEL } from "../inference/harness";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(existsSync);
const ARTIFACTS = join(import.meta.dir, "../../artifacts");
const PASSWORD = "browser test password";

let up: MockUpstream;
let gw: TestGateway;
let app: ReturnType<typeof Bun.serve>;
let browser: Browser;
const callbacks: URL[] = [];

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  up = await startMockUpstream();
  gw = await startTestGateway({ yaml: gatewayYaml(up.url) });
  await createUserWithPassword(gw.ctx, { id: "lin", email: "lin@example.com", password: PASSWORD, name: "Lin" });
  // the app's loopback callback: it only records what the browser brought back
  app = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== "/favicon.ico") callbacks.push(url);
      return new Response("<!doctype html><title>app</title><p id=done>back in the app</p>", { headers: { "content-type": "text/html" } });
    },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  // a cold Chromium (first launch after install, a busy machine) takes longer than bun's 5 s hook limit
}, 60_000);
afterAll(async () => {
  if (!CHROMIUM) return;
  await browser?.close();
  app.stop(true);
  await gw.close();
  await up.stop();
});

/** Screenshots of the page at a desktop and a phone width; the page must not scroll sideways on the phone. */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.skipIf(!CHROMIUM)(
  "sign in, authorize, land on the callback with a code, exchange it with the SDK, call a model",
  async () => {
    const sdk = new OpenRouter({ serverURL: `${gw.url}/api/v1`, retryConfig: { strategy: "none" } });
    const { codeChallenge, codeVerifier } = await sdk.oAuth.createSHA256CodeChallenge();
    const callbackUrl = `http://127.0.0.1:${app.port}/callback`;
    const authUrl = await sdk.oAuth.createAuthorizationUrl({ callbackUrl, codeChallenge, codeChallengeMethod: "S256", limit: 3 });
    expect(authUrl).toStartWith(`${gw.url}/auth?callback_url=`);

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const cspViolations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    await page.goto(authUrl);

    // signed out: the sign-in page, styled by its stylesheet file
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await page.title()).toBe("Sign in · Model Gateway");
    expect(await page.evaluate('getComputedStyle(document.querySelector("button.primary")).backgroundColor')).toBe("rgb(31, 95, 209)");
    await screenshots(page, "sign-in");

    // keyboard only: the email field has focus; Tab to the password, Enter submits
    expect(await page.evaluate("document.activeElement.id")).toBe("email");
    await page.keyboard.type("lin@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await Promise.all([page.waitForURL((u) => u.pathname === "/auth"), page.keyboard.press("Enter")]);

    // the consent page: the app's origin, the limit, the workspace
    expect(await page.locator("h1").innerText()).toBe(`Authorize http://127.0.0.1:${app.port}?`);
    const facts = await page.locator("dl.facts dd").allInnerTexts();
    expect(facts).toEqual([`http://127.0.0.1:${app.port}`, "$3.00", "Default", "lin@example.com"]);
    await screenshots(page, "consent");

    // nothing has focus (a second Enter from sign-in must not approve); Tab reaches Authorize first
    expect(await page.evaluate("document.activeElement === document.body")).toBe(true);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.value")).toBe("authorize");
    await Promise.all([page.waitForURL((u) => u.port === String(app.port)), page.keyboard.press("Enter")]);
    expect(await page.locator("#done").innerText()).toBe("back in the app");
    expect(cspViolations).toEqual([]);
    await page.close();

    const landed = callbacks.at(-1)!;
    expect(landed.pathname).toBe("/callback");
    const code = landed.searchParams.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const { key, userId } = await sdk.oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code, codeVerifier, codeChallengeMethod: "S256" } });
    expect(userId).toBe("lin");

    up.enqueue({ text: "Hello from the new key", usage: { input: 5, output: 5 } });
    const client = new OpenRouter({ serverURL: `${gw.url}/api/v1`, apiKey: key, retryConfig: { strategy: "none" } });
    const answer = await client.chat.send({ chatRequest: { model: MODEL["openai-chat"], messages: [{ role: "user", content: "hi" }] } });
    expect((answer as any).choices[0].message.content).toBe("Hello from the new key");
    const meta = ((await (await gw.api("/api/v1/key", { key })).json()) as any).data;
    expect([meta.creator_user_id, meta.limit, meta.is_management_key]).toEqual(["lin", 3, false]);
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "Deny takes the browser back to the app with error=access_denied",
  async () => {
    const sdk = new OpenRouter({ serverURL: `${gw.url}/api/v1`, retryConfig: { strategy: "none" } });
    const context = await browser.newContext();
    const page = await context.newPage();
    const callbackUrl = `http://localhost:${app.port}/denied`;
    await page.goto(await sdk.oAuth.createAuthorizationUrl({ callbackUrl }));
    await page.fill("#email", "lin@example.com");
    await page.fill("#password", PASSWORD);
    await Promise.all([page.waitForURL((u) => u.pathname === "/auth"), page.click("button[type=submit]")]);
    expect(await page.locator("dl.facts dd").nth(1).innerText()).toBe("No limit");
    await Promise.all([page.waitForURL((u) => u.port === String(app.port)), page.click("button[value=deny]")]);
    const landed = callbacks.at(-1)!;
    expect([landed.pathname, landed.searchParams.get("error"), landed.searchParams.get("code")]).toEqual(["/denied", "access_denied", null]);
    await context.close();
  },
  60_000,
);

test.skipIf(!CHROMIUM)(
  "a member of another workspace chooses it on the consent page, and the key is that workspace's",
  async () => {
    await createUserWithPassword(gw.ctx, { id: "mo", email: "mo@example.com", password: PASSWORD, name: "Mo" });
    const research = (
      (await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Research", slug: "research" } })).json()) as { data: { id: string } }
    ).data;
    expect((await gw.api(`/api/v1/workspaces/${research.id}/members/add`, { method: "POST", json: { user_ids: ["mo"] } })).status).toBe(200);

    const sdk = new OpenRouter({ serverURL: `${gw.url}/api/v1`, retryConfig: { strategy: "none" } });
    const { codeChallenge, codeVerifier } = await sdk.oAuth.createSHA256CodeChallenge();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await sdk.oAuth.createAuthorizationUrl({ callbackUrl: `http://127.0.0.1:${app.port}/chosen`, codeChallenge, codeChallengeMethod: "S256" }));
    await page.fill("#email", "mo@example.com");
    await page.fill("#password", PASSWORD);
    await Promise.all([page.waitForURL((u) => u.pathname === "/auth"), page.click("button[type=submit]")]);

    // the default workspace is chosen until the person picks another; the select sits outside the form and submits with it
    expect(await page.locator("#workspace_id option").allInnerTexts()).toEqual(["Default", "Research"]);
    expect(await page.locator("#workspace_id option:checked").innerText()).toBe("Default");
    await screenshots(page, "consent-workspace-choice");
    await page.selectOption("#workspace_id", { label: "Research" });
    await Promise.all([page.waitForURL((u) => u.port === String(app.port)), page.click("button[value=authorize]")]);
    await context.close();

    const landed = callbacks.at(-1)!;
    expect(landed.pathname).toBe("/chosen");
    const { key } = await sdk.oAuth.exchangeAuthCodeForAPIKey({
      requestBody: { code: landed.searchParams.get("code")!, codeVerifier, codeChallengeMethod: "S256" },
    });
    const meta = ((await (await gw.api("/api/v1/key", { key })).json()) as any).data;
    expect([meta.creator_user_id, meta.workspace_id]).toEqual(["mo", research.id]);
  },
  60_000,
);
