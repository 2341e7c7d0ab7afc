import { expect, test } from "bun:test";
import fc from "fast-check";
import { DEFAULT_NEXT, safeNextPath } from "../../../src/auth-web/next-path";

test("paths of this site are kept; anything that could leave it falls back", () => {
  expect(safeNextPath("/console/keys?x=1#y")).toBe("/console/keys?x=1#y");
  expect(safeNextPath("/auth?callback_url=https%3A%2F%2Fapp.example")).toBe("/auth?callback_url=https%3A%2F%2Fapp.example");
  for (const bad of [
    null,
    undefined,
    "",
    "console",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "/\t/evil.example",
    "/%0a",
    " /x",
  ]) {
    const kept = safeNextPath(bad);
    expect(kept === DEFAULT_NEXT || kept.startsWith("/%")).toBe(true);
  }
});

test("property: the result always resolves to this origin, whatever comes in", () => {
  const base = "https://gateway.example";
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.webUrl(),
        fc.string().map((s) => `/${s}`),
        fc.string().map((s) => `//${s}`),
        fc.string().map((s) => `/\\${s}`),
      ),
      (raw) => {
        const next = safeNextPath(raw);
        return next.startsWith("/") && !next.startsWith("//") && new URL(next, base).origin === base;
      },
    ),
    { seed: 1, numRuns: 2000 },
  );
});
