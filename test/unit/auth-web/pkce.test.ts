import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { challengeProblem, s256Challenge, verifierMatches, verifierWellFormed } from "../../../src/modules/auth/pkce";

const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
const verifier = (min = 43, max = 128) => fc.string({ unit: fc.constantFrom(...UNRESERVED), minLength: min, maxLength: max });

describe("PKCE (RFC 7636)", () => {
  test("appendix B: the verifier's S256 challenge, accepted under S256 only", () => {
    const v = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const c = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    expect(s256Challenge(v)).toBe(c);
    expect(verifierMatches(c, "S256", v)).toBe(true);
    expect(verifierMatches(c, "plain", v)).toBe(false);
    expect(verifierMatches(v, "plain", v)).toBe(true);
  });

  test("a verifier is 43 to 128 unreserved characters", () => {
    expect(verifierWellFormed("a".repeat(42))).toBe(false);
    expect(verifierWellFormed("a".repeat(43))).toBe(true);
    expect(verifierWellFormed("a".repeat(128))).toBe(true);
    expect(verifierWellFormed("a".repeat(129))).toBe(false);
    expect(verifierWellFormed(`${"a".repeat(42)}+`)).toBe(false);
    expect(verifierWellFormed(`${"a".repeat(42)}é`)).toBe(false);
  });

  test("property: every well-formed verifier matches its own challenge under both methods, and S256 challenges are 43 base64url characters", () => {
    fc.assert(
      fc.property(verifier(), (v) => {
        const c = s256Challenge(v);
        return /^[A-Za-z0-9_-]{43}$/.test(c) && challengeProblem(c, "S256") === null && verifierMatches(c, "S256", v) && verifierMatches(v, "plain", v);
      }),
      { seed: 7636, numRuns: 500 },
    );
  });

  test("property: another verifier never matches, nor does a malformed one (even when plain-equal)", () => {
    fc.assert(
      fc.property(verifier(), verifier(), (a, b) => a === b || (!verifierMatches(s256Challenge(a), "S256", b) && !verifierMatches(a, "plain", b))),
      { seed: 42, numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        (s) => verifierWellFormed(s) || (!verifierMatches(s256Challenge(s), "S256", s) && !verifierMatches(s, "plain", s)),
      ),
      { seed: 43, numRuns: 500 },
    );
  });
});
