/** The helpers every video adapter shares: HTTP status → outcome, which URLs get the key, size → aspect/resolution. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { aspectAndResolutionOfSize } from "../../../src/videos/adapters/size";
import { onOrigin, outcomeOfHttpError, type UpstreamResponse } from "../../../src/videos/adapters/upstream-call";

const answer = (status: number, headers: Record<string, string> = {}): UpstreamResponse => ({
  kind: "response",
  status,
  headers: new Headers(headers),
  json: undefined,
  text: "",
});
const NOW = Date.parse("2026-11-23T12:00:00Z");

describe("outcomeOfHttpError", () => {
  test.each([
    [400, "failed", "invalid_request"],
    [401, "failed", "upstream_error"],
    [402, "failed", "insufficient_credits"],
    [403, "failed", "upstream_error"],
    [404, "failed", "invalid_request"],
    [422, "failed", "invalid_request"],
    [408, "retry", undefined],
    [429, "retry", undefined],
    [500, "retry", undefined],
    [503, "retry", undefined],
  ] as const)("HTTP %i → %s %s", (status, kind, code) => {
    const outcome = outcomeOfHttpError(answer(status), "m", NOW);
    expect(outcome.kind).toBe(kind);
    expect(outcome.kind === "failed" ? outcome.code : undefined).toBe(code);
  });

  test("every status ≥ 400 is retry or failed, never anything else; Retry-After only on retries", () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), (status) => {
        const outcome = outcomeOfHttpError(answer(status, { "retry-after": "5" }), "m", NOW);
        return outcome.kind === "retry" ? outcome.retryAfterSeconds === 5 : outcome.kind === "failed" && !("retryAfterSeconds" in outcome);
      }),
    );
  });
});

describe("onOrigin", () => {
  test("a URL on the configured origin is kept, anything else replaced", () => {
    expect(onOrigin("https://queue.fal.run/a/b/requests/1/status", "https://queue.fal.run", "fb")).toBe("https://queue.fal.run/a/b/requests/1/status");
    expect(onOrigin("https://evil.test/steal", "https://queue.fal.run", "fb")).toBe("fb");
    expect(onOrigin("http://queue.fal.run/x", "https://queue.fal.run", "fb")).toBe("fb");
    expect(onOrigin(undefined, "https://queue.fal.run", "fb")).toBe("fb");
    expect(onOrigin("not a url", "https://queue.fal.run", "fb")).toBe("fb");
  });
});

describe("aspectAndResolutionOfSize", () => {
  test.each([
    ["1280x720", "16:9", "720p"],
    ["720x1280", "9:16", "720p"],
    ["1920x1080", "16:9", "1080p"],
    ["3840x2160", "16:9", "4k"],
    ["1024x1024", "1:1", "1024p"],
  ])("%s → %s %s", (size, aspectRatio, resolution) => expect(aspectAndResolutionOfSize(size)).toEqual({ aspectRatio, resolution }));
  test.each(["", "1280", "1280x", "0x720", "axb"])("%j → undefined", (size) => expect(aspectAndResolutionOfSize(size)).toBeUndefined());
});
