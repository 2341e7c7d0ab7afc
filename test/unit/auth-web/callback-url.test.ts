import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { appIdOf, callbackOrigin, callbackProblem, callbackWith } from "../../../src/modules/auth/callback-url";

describe("callback URLs", () => {
  test("https anywhere, http on localhost or 127.0.0.1 on any port; nothing else", () => {
    // 0x7f000001 is 127.0.0.1 written otherwise: the URL parser normalises it
    const allowed = [
      "https://app.example/cb",
      "https://app.example:8443/a/b?x=1",
      "http://localhost/cb",
      "http://localhost:3000/cb",
      "http://127.0.0.1:65535/",
      "HTTP://LOCALHOST:80/x",
      "http://0x7f000001/",
    ];
    const refused = [
      "http://app.example/cb",
      "http://localhost.evil.example/",
      "http://127.0.0.2/",
      "http://[::1]:3000/",
      "ftp://127.0.0.1/",
      "javascript:alert(1)",
      "data:text/html,hi",
      "https://user:pw@app.example/",
      "https://app.example/cb#frag",
      "https://app.example/cb#",
      "/relative",
      "",
    ];
    expect(allowed.filter((u) => callbackProblem(u) !== null)).toEqual([]);
    expect(refused.filter((u) => callbackProblem(u) === null)).toEqual([]);
  });

  test("the origin shown, parameters added with the app's own kept, and a stable app id", () => {
    expect(callbackOrigin("http://127.0.0.1:3000/cb?x=1")).toBe("http://127.0.0.1:3000");
    expect(callbackWith("https://app.example/cb?state=a%20b&code=old", { code: "new" })).toBe("https://app.example/cb?state=a+b&code=new");
    expect(appIdOf("https://app.example/one")).toBe(appIdOf("https://app.example/two?x"));
    expect(appIdOf("https://app.example/")).not.toBe(appIdOf("https://other.example/"));
  });

  test("property: whatever is allowed is https, or http on one of the two loopback names", () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()), (raw) => {
        if (callbackProblem(raw) !== null) return true;
        const url = new URL(raw);
        return url.protocol === "https:" || (url.protocol === "http:" && ["localhost", "127.0.0.1"].includes(url.hostname));
      }),
      { seed: 6749, numRuns: 300 },
    );
  });
});
