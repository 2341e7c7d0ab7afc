// deriveSize: the size an aspect ratio and resolution become, drawn from an endpoint's own sizes.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { deriveSize, OPENAI_SIZES, shorterSideOf, sizeFits } from "../../../src/videos/adapters/size";

// the enums of OpenRouter's VideoGenerationRequest
const RATIOS = ["16:9", "9:16", "1:1", "4:3", "3:4", "3:2", "2:3", "21:9", "9:21"];
const RESOLUTIONS = ["360p", "480p", "720p", "768p", "1080p", "1K", "2K", "4K"];

// the oracle, written apart from the code under test: width:height in lowest terms, and the shorter side
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const reduced = (size: string) => {
  const [w, h] = size.split("x").map(Number) as [number, number];
  return `${w / gcd(w, h)}:${h / gcd(w, h)}`;
};
const shorter = (size: string) => Math.min(...size.split("x").map(Number));
const TIER: Record<string, number | undefined> = { "360p": 360, "480p": 480, "720p": 720, "768p": 768, "1080p": 1080, "4K": 2160 };

describe("deriveSize", () => {
  test.each([
    // the endpoint: 1:1 at 720p is its 720x720, not nothing
    [["720x720", "1280x720"], { aspectRatio: "1:1", resolution: "720p" }, "720x720"],
    [["720x720", "1280x720"], { aspectRatio: "16:9", resolution: "720p" }, "1280x720"],
    [["720x720", "1280x720"], { aspectRatio: "9:16", resolution: "720p" }, undefined],
    [["720x720", "1280x720"], { aspectRatio: "1:1", resolution: "1080p" }, undefined],
    // a ratio alone: 720p when listed, else the first listed
    [["1920x1080", "1280x720"], { aspectRatio: "16:9" }, "1280x720"],
    [["2160x2160", "1080x1080"], { aspectRatio: "1:1" }, "2160x2160"],
    // a resolution alone: 16:9 when listed, else the first listed
    [["720x1280", "720x720", "1280x720"], { resolution: "720p" }, "1280x720"],
    [["720x1280", "720x720"], { resolution: "720p" }, "720x1280"],
    [["3840x2160", "1920x1080"], { resolution: "4K" }, "3840x2160"],
    // 1K and 2K name no shorter side; nothing asked derives nothing
    [["1920x1080"], { resolution: "2K" }, undefined],
    [["1280x720"], {}, undefined],
    // the built-in sizes (OpenAI's): the table this replaced
    [OPENAI_SIZES, { aspectRatio: "9:16", resolution: "720p" }, "720x1280"],
    [OPENAI_SIZES, { aspectRatio: "16:9", resolution: "1080p" }, "1920x1080"],
    [OPENAI_SIZES, { aspectRatio: "1:1" }, undefined],
  ] as const)("%j %j → %p", (sizes, asked, expected) => {
    expect(deriveSize(sizes, asked)).toBe(expected);
  });

  test("shorterSideOf: the p tiers and 4K; 1K and 2K are ambiguous", () => {
    expect(RESOLUTIONS.map(shorterSideOf)).toEqual([360, 480, 720, 768, 1080, undefined, undefined, 2160]);
  });

  // sizes built to fit the enums often (a ratio at a tier), mixed with arbitrary ones
  const fitted = fc.tuple(fc.constantFrom(...RATIOS), fc.constantFrom(360, 480, 720, 768, 1080, 2160)).map(([ratio, side]) => {
    const [a, b] = ratio.split(":").map(Number) as [number, number];
    return a >= b ? `${Math.round((side * a) / b)}x${side}` : `${side}x${Math.round((side * b) / a)}`;
  });
  const anySize = fc.tuple(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 4000 })).map(([w, h]) => `${w}x${h}`);
  const sizes = fc.array(fc.oneof(fitted, anySize), { maxLength: 12 });
  const asked = fc.record({ aspectRatio: fc.constantFrom(...RATIOS), resolution: fc.constantFrom(...RESOLUTIONS) }, { requiredKeys: [] });

  test("property: a derived size is one of the sizes, reduces to the ratio asked and has the resolution asked", () => {
    fc.assert(
      fc.property(sizes, asked, (list, want) => {
        const size = deriveSize(list, want);
        if (size === undefined) return;
        expect(list).toContain(size);
        if (want.aspectRatio !== undefined) expect(reduced(size)).toBe(want.aspectRatio);
        if (want.resolution !== undefined) expect(shorter(size)).toBe(TIER[want.resolution]!);
      }),
      { numRuns: 2000 },
    );
  });

  test("property: a size is derived whenever one fits and something was asked, the same one for the same sizes", () => {
    fc.assert(
      fc.property(sizes, asked, (list, want) => {
        const asks = want.aspectRatio !== undefined || want.resolution !== undefined;
        const oracleFits = (s: string) =>
          (want.aspectRatio === undefined || reduced(s) === want.aspectRatio) && (want.resolution === undefined || shorter(s) === TIER[want.resolution]);
        expect(deriveSize(list, want) !== undefined).toBe(asks && list.some(oracleFits));
        expect(deriveSize([...list], { ...want })).toBe(deriveSize(list, want));
        for (const s of list) expect(sizeFits(s, want)).toBe(oracleFits(s));
      }),
      { numRuns: 2000 },
    );
  });
});
