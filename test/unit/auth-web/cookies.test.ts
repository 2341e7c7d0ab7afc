import { expect, test } from "bun:test";
import { cookieHeader, cookiesSecure, readCookie } from "../../../src/auth-web/cookies";
import type { Config } from "../../../src/config";

const ctx = (publicUrl?: string) => ({ config: { server: { maxBodyMb: 32, cors: { origins: ["*"] }, publicUrl } } as Config });

test("Secure when the request came over HTTPS, a proxy says it did, or the public URL is https", () => {
  const plain = new Request("http://127.0.0.1:8080/login");
  expect(cookiesSecure(ctx(), plain)).toBe(false);
  expect(cookiesSecure(ctx("http://gateway.internal"), plain)).toBe(false);
  expect(cookiesSecure(ctx("https://gateway.example.com"), plain)).toBe(true);
  expect(cookiesSecure(ctx(), new Request("https://gateway.example.com/login"))).toBe(true);
  expect(cookiesSecure(ctx(), new Request("http://127.0.0.1/login", { headers: { "x-forwarded-proto": "HTTPS, http" } }))).toBe(true);
});

test("cookies are read by exact name and written HttpOnly", () => {
  const request = new Request("http://x/", { headers: { cookie: "gw_session_old=a; gw_session=b=c ; other=d" } });
  expect(readCookie(request, "gw_session")).toBe("b=c");
  expect(readCookie(request, "missing")).toBeUndefined();
  expect(cookieHeader("gw_session", "v", { secure: true, sameSite: "Lax", maxAge: 60 })).toBe(
    "gw_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure",
  );
});
