// Sign-in throttling under a bounded brute-force loop: failures are answered more and more
// slowly, the fifth within 15 minutes locks the account (or the address) for 15 minutes, even
// for the right password, and the answers never say whether the email or the password was
// wrong. Passwords appear in no log line.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createLogger } from "../../../src/logger";
import { startTestGateway, type TestGateway } from "../../support/gateway";
import { createUserWithPassword, loginForm } from "../../support/sign-in";

// argon2id checks take a few hundred ms each on a loaded machine; bun's default per-test timeout is 5 s
setDefaultTimeout(30_000);

const PASSWORD = "the real password 42";
const logLines: string[] = [];
let now = Date.parse("2030-01-01T00:00:00Z");
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({ clock: () => now, logger: createLogger("debug", (line) => logLines.push(line)), env: { LOG_LEVEL: "debug" } });
  for (const id of ["vic", "wes", "xia", "yan", "zed"]) await createUserWithPassword(gw.ctx, { id, email: `${id}@example.com`, password: PASSWORD });
});
afterAll(() => gw.close());

/** one sign-in attempt from `address` (the loopback peer's X-Forwarded-For, as a local reverse proxy sends it) */
async function attempt(email: string, password: string, address: string): Promise<{ status: number; ms: number; page: string; retryAfter: string | null }> {
  const form = await loginForm(gw.url);
  const started = performance.now();
  const res = await fetch(`${gw.url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: form.formCookie, "x-forwarded-for": `198.51.100.99, ${address}` },
    body: new URLSearchParams({ csrf_token: form.csrfToken, email, password }),
  });
  const page = await res.text();
  return { status: res.status, ms: performance.now() - started, page, retryAfter: res.headers.get("retry-after") };
}

const errorOf = (page: string) => page.match(/role="alert" id="login-error">([^<]*)</)?.[1];

describe("sign-in throttling", () => {
  test("one account from one address: slower and slower, then refused for 15 minutes, right password included", async () => {
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await attempt("vic@example.com", `guess number ${i}`, "203.0.113.1"));
    const summary = results.map((r) => [r.status, errorOf(r.page)]);
    console.log(`brute force on one account: ${results.map((r) => `${r.status} in ${r.ms.toFixed(0)} ms`).join(", ")}`);
    const wrong = "Incorrect email or password.";
    const locked = "Too many failed sign-ins. Try again in 15 minute(s).";
    expect(summary).toEqual([
      [401, wrong],
      [401, wrong],
      [401, wrong],
      [401, wrong],
      [429, locked],
      [429, locked],
      [429, locked],
      [429, locked],
    ]);
    // the 2nd, 3rd and 4th failure wait 250, 500 and 1000 ms before answering; the 5th (the lock) 2000 ms
    expect(results[1]!.ms).toBeGreaterThanOrEqual(250);
    expect(results[2]!.ms).toBeGreaterThanOrEqual(500);
    expect(results[3]!.ms).toBeGreaterThanOrEqual(1000);
    expect(results[4]!.ms).toBeGreaterThanOrEqual(2000);
    // refusals during the lock cost nothing: no password is checked. The fastest of the three, so
    // that one stall of a busy machine (397 ms once, on a VM with heavy steal) is not taken for a
    // hash: a refusal that checked the password would make every one of them slow.
    expect(Math.min(...results.slice(5).map((r) => r.ms))).toBeLessThan(200);
    expect(results[5]!.retryAfter).toBe("900");

    const right = await attempt("vic@example.com", PASSWORD, "203.0.113.2");
    expect([right.status, errorOf(right.page)]).toEqual([429, locked]);
    now += 15 * 60_000;
    try {
      expect((await attempt("vic@example.com", PASSWORD, "203.0.113.1")).status).toBe(303);
    } finally {
      now -= 15 * 60_000;
    }
  }, 60_000);

  test("one address across accounts (existing or not): locked after 5 failures, other addresses unaffected", async () => {
    const emails = ["wes@example.com", "nobody-1@example.com", "xia@example.com", "nobody-2@example.com", "wes@example.com"];
    const statuses = [];
    for (const email of emails) statuses.push((await attempt(email, "not it at all", "203.0.113.50")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect((await attempt("yan@example.com", PASSWORD, "203.0.113.50")).status).toBe(429);
    expect((await attempt("yan@example.com", PASSWORD, "203.0.113.51")).status).toBe(303);
  }, 60_000);

  test("a failure in an earlier 15-minute window does not count toward a later lock", async () => {
    const start = now;
    try {
      for (let i = 0; i < 4; i++) expect((await attempt("zed@example.com", "wrong wrong", `192.0.2.${i}`)).status).toBe(401);
      now += 15 * 60_000 + 1;
      expect((await attempt("zed@example.com", "wrong wrong", "192.0.2.10")).status).toBe(401);
      expect((await attempt("zed@example.com", PASSWORD, "192.0.2.11")).status).toBe(303);
    } finally {
      now = start;
    }
  }, 60_000);

  test("no log line holds a password", () => {
    expect(logLines.length).toBeGreaterThan(0);
    const leaked = logLines.filter((line) => line.includes(PASSWORD) || line.includes("guess number") || line.includes("not it at all"));
    expect(leaked).toEqual([]);
  });
});
