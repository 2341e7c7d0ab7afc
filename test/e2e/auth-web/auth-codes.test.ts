// The PKCE flow's API: POST /api/v1/auth/keys/code and POST /api/v1/auth/keys (the exchange),
// through @openrouter/sdk and plain fetch. Codes work once, for 10 minutes; any failed
// redemption burns the code; nothing refused creates a key.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { OpenRouter } from "@openrouter/sdk";
import { s256Challenge } from "../../../src/modules/auth/pkce";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { createUserWithPassword } from "../../support/sign-in";

// argon2id checks take a few hundred ms each on a loaded machine; bun's default per-test timeout is 5 s
setDefaultTimeout(30_000);

// RFC 7636 appendix B
const RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const CALLBACK = "http://127.0.0.1:43111/callback";

let now = Date.parse("2030-01-01T00:00:00Z");
let gw: TestGateway;
let grace: { key: string; hash: string };

beforeAll(async () => {
  gw = await startTestGateway({ clock: () => now });
  await createUserWithPassword(gw.ctx, { id: "grace", email: "grace@example.com", password: "a long enough password" });
  grace = await createInferenceKey(gw, { name: "grace's own key", creator_user_id: "grace" });
});
afterAll(() => gw.close());

const sdk = (apiKey?: string) => new OpenRouter({ serverURL: `${gw.url}/api/v1`, apiKey, retryConfig: { strategy: "none" } });

async function newCode(body: Record<string, unknown> = {}, key = gw.adminKey): Promise<string> {
  const res = await gw.api("/api/v1/auth/keys/code", {
    method: "POST",
    key,
    json: { callback_url: CALLBACK, user_id: "grace", code_challenge: RFC_CHALLENGE, code_challenge_method: "S256", ...body },
  });
  if (res.status !== 200) throw new Error(`code: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

const exchange = (body: Record<string, unknown>) => gw.api("/api/v1/auth/keys", { method: "POST", key: null, json: body });

async function graceKeyCount(): Promise<number> {
  const res = await gw.api("/api/v1/organization/members/grace/keys");
  return ((await res.json()) as { data: unknown[] }).data.length;
}

describe("POST /api/v1/auth/keys/code", () => {
  test("through the SDK, a management key makes a code for its own user: {data: {id, app_id, created_at}}", async () => {
    const result = await sdk(gw.adminKey).oAuth.createAuthCode({
      requestBody: { callbackUrl: CALLBACK, codeChallenge: RFC_CHALLENGE, codeChallengeMethod: "S256", limit: 5 },
    });
    expect(result.data.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.data.appId).toBeGreaterThan(0);
    expect(result.data.createdAt).toBe("2030-01-01T00:00:00.000Z");
    const exchanged = await sdk().oAuth.exchangeAuthCodeForAPIKey({
      requestBody: { code: result.data.id, codeVerifier: RFC_VERIFIER, codeChallengeMethod: "S256" },
    });
    expect(exchanged.userId).toBe("owner");
  });

  test("a user's own key makes codes for that user only", async () => {
    const own = await gw.api("/api/v1/auth/keys/code", { method: "POST", key: grace.key, json: { callback_url: CALLBACK } });
    expect(own.status).toBe(200);
    const other = await gw.api("/api/v1/auth/keys/code", { method: "POST", key: grace.key, json: { callback_url: CALLBACK, user_id: "owner" } });
    expect(other.status).toBe(403);
    expect(((await other.json()) as any).error.metadata).toEqual({ field: "user_id" });
  });

  test("bad input names the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ callback_url: "http://app.example/cb" }, "callback_url"],
      [{ callback_url: "ftp://127.0.0.1/cb" }, "callback_url"],
      [{ callback_url: "https://app.example/cb#frag" }, "callback_url"],
      [{ code_challenge: "too-short", code_challenge_method: "S256" }, "code_challenge"],
      [{ expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
      [{ user_id: "nobody" }, "user_id"],
    ];
    for (const [body, field] of cases) {
      const res = await gw.api("/api/v1/auth/keys/code", { method: "POST", json: { callback_url: CALLBACK, user_id: "grace", ...body } });
      expect([res.status, ((await res.json()) as any).error.metadata.field]).toEqual([400, field]);
    }
  });
});

describe("POST /api/v1/auth/keys", () => {
  test("S256 with the RFC 7636 vector: the SDK gets a key of the user, with the code's limit, reset, expiry and label", async () => {
    const code = await newCode({ limit: 2.5, usage_limit_type: "weekly", expires_at: "2030-02-01T00:00:00Z", key_label: "CLI on my laptop" });
    const result = await sdk().oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code, codeVerifier: RFC_VERIFIER, codeChallengeMethod: "S256" } });
    expect(result.userId).toBe("grace");
    expect(result.key).toMatch(/^sk-gw-v1-[0-9a-f]{64}$/);
    const meta = (await (await gw.api("/api/v1/key", { key: result.key })).json()) as any;
    expect(meta.data).toMatchObject({
      label: expect.any(String),
      limit: 2.5,
      limit_reset: "weekly",
      expires_at: "2030-02-01T00:00:00.000Z",
      is_management_key: false,
      creator_user_id: "grace",
    });
    const listed = ((await (await gw.api("/api/v1/organization/members/grace/keys")).json()) as any).data.find((k: any) => k.name === "CLI on my laptop");
    expect(listed).toMatchObject({ limit: 2.5, limit_reset: "weekly", creator_user_id: "grace", disabled: false });
  });

  test("plain: the verifier is the challenge; no method in the exchange uses the code's", async () => {
    const verifier = `${"x".repeat(43)}-._~`;
    const code = await newCode({ code_challenge: verifier, code_challenge_method: "plain" });
    const res = await exchange({ code, code_verifier: verifier });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).user_id).toBe("grace");
  });

  test("a challenge without a method is plain (RFC 7636 §4.3)", async () => {
    const verifier = "v".repeat(128);
    const code = await newCode({ code_challenge: verifier, code_challenge_method: undefined });
    expect((await exchange({ code, code_verifier: verifier, code_challenge_method: "plain" })).status).toBe(200);
  });

  test("20 parallel redemptions of one code give exactly one key", async () => {
    const before = await graceKeyCount();
    const code = await newCode();
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange({ code, code_verifier: RFC_VERIFIER, code_challenge_method: "S256" })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(403)]);
    expect(await graceKeyCount()).toBe(before + 1);
  });

  test("refused, with 403 and no key: reused, expired, wrong verifier (which burns the code), method mismatch, verifier without a challenge", async () => {
    const before = await graceKeyCount();
    const refusedWith = async (body: Record<string, unknown>, message: string) => {
      const res = await exchange(body);
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error).toEqual({ code: 403, message });
    };
    const used = await newCode();
    expect((await exchange({ code: used, code_verifier: RFC_VERIFIER })).status).toBe(200);
    await refusedWith({ code: used, code_verifier: RFC_VERIFIER }, "Invalid authorization code: unknown, already used, or expired");

    const expired = await newCode();
    now += 10 * 60_000;
    try {
      await refusedWith({ code: expired, code_verifier: RFC_VERIFIER }, "Authorization code has expired");
    } finally {
      now -= 10 * 60_000;
    }

    const guessed = await newCode();
    await refusedWith({ code: guessed, code_verifier: "A".repeat(43) }, "code_verifier does not match the code_challenge");
    await refusedWith({ code: guessed, code_verifier: RFC_VERIFIER }, "Invalid authorization code: unknown, already used, or expired");

    const s256 = await newCode();
    await refusedWith(
      { code: s256, code_verifier: RFC_CHALLENGE, code_challenge_method: "plain" },
      "code_challenge_method 'plain' differs from the method the code was issued with",
    );
    const plain = await newCode({ code_challenge: RFC_VERIFIER, code_challenge_method: "plain" });
    await refusedWith(
      { code: plain, code_verifier: RFC_VERIFIER, code_challenge_method: "S256" },
      "code_challenge_method 'S256' differs from the method the code was issued with",
    );

    const missing = await newCode();
    await refusedWith({ code: missing }, "This authorization code requires its code_verifier");

    const noChallenge = await newCode({ code_challenge: undefined, code_challenge_method: undefined });
    await refusedWith({ code: noChallenge, code_verifier: RFC_VERIFIER }, "This authorization code was issued without a code_challenge: send no code_verifier");

    await refusedWith({ code: "made-up" }, "Invalid authorization code: unknown, already used, or expired");
    expect(await graceKeyCount()).toBe(before + 1);
  });

  test("a code issued without a challenge exchanges with the code alone", async () => {
    const code = await newCode({ code_challenge: undefined, code_challenge_method: undefined });
    expect((await exchange({ code })).status).toBe(200);
  });

  test("a malformed verifier is a 400 naming the field (and the SDK's typed error)", async () => {
    const code = await newCode();
    const res = await exchange({ code, code_verifier: "short" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.metadata.field).toBe("code_verifier");
    const err = await sdk()
      .oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: "made-up" } })
      .catch((e) => e);
    expect(err.constructor.name).toBe("ForbiddenResponseError");
  });

  test("the S256 helper is RFC 7636's", () => {
    expect(s256Challenge(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
  });
});
