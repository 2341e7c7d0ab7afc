import { describe, expect, test } from "bun:test";
import { sampledIn, sampleFraction, samplingKey } from "../../../src/observability/pipeline/sampling";
import { observed } from "./observed-fixture";

const DEST_A = "00000000-0000-4000-8000-00000000000a";
const DEST_B = "00000000-0000-4000-8000-00000000000b";

/** 2,000 sessions of 5 generations each: which sessions were kept, and whether any was cut in half */
function sample(destination: string, rate: number) {
  let kept = 0;
  let split = 0;
  const decisions: boolean[] = [];
  for (let s = 0; s < 2000; s++) {
    const verdicts = Array.from({ length: 5 }, (_, i) => sampledIn(destination, observed({ id: `gen-${s}-${i}`, sessionId: `session-${s}` }), rate));
    if (verdicts.every(Boolean)) kept++;
    else if (verdicts.some(Boolean)) split++;
    decisions.push(verdicts[0]!);
  }
  return { kept, split, decisions };
}

describe("deterministic sampling per destination and session", () => {
  test("0.5 over 2,000 sessions keeps 45–55 % of them, never half a session", () => {
    const { kept, split } = sample(DEST_A, 0.5);
    expect(split).toBe(0);
    expect(kept).toBeGreaterThanOrEqual(900);
    expect(kept).toBeLessThanOrEqual(1100);
  });

  test("another destination keeps other sessions", () => {
    const a = sample(DEST_A, 0.5).decisions;
    const b = sample(DEST_B, 0.5).decisions;
    const differ = a.filter((d, i) => d !== b[i]).length;
    // independent decisions differ about half the time
    expect(differ).toBeGreaterThan(800);
    expect(differ).toBeLessThan(1200);
  });

  test("the same decision every time", () => {
    expect(sample(DEST_A, 0.3).decisions).toEqual(sample(DEST_A, 0.3).decisions);
  });

  test("rate 1 keeps everything, 0.0001 almost nothing", () => {
    expect(sample(DEST_A, 1).kept).toBe(2000);
    expect(sample(DEST_A, 0.0001).kept).toBeLessThanOrEqual(3);
  });

  test("the fraction is the first 8 bytes of sha256(destination ‖ key) over 2^64", () => {
    const digest = new Bun.CryptoHasher("sha256").update(`${DEST_A}session-1`).digest();
    expect(sampleFraction(DEST_A, "session-1")).toBe(Number(digest.readBigUInt64BE(0)) / 2 ** 64);
    expect(sampledIn(DEST_A, observed({ sessionId: "session-1" }), 0.5)).toBe(sampleFraction(DEST_A, "session-1") < 0.5);
  });
});

describe("what keeps a session whole", () => {
  test("session_id, else trace.trace_id, else the generation id", () => {
    expect(samplingKey(observed({ sessionId: "s", trace: { trace_id: "t" } }))).toBe("s");
    expect(samplingKey(observed({ sessionId: null, trace: { trace_id: "t" } }))).toBe("t");
    expect(samplingKey(observed({ sessionId: null, trace: { trace_id: 7 } }))).toBe("gen-1");
    expect(samplingKey(observed({ sessionId: null, trace: null }))).toBe("gen-1");
  });
  test("the generations of one trace share a decision", () => {
    const verdicts = Array.from({ length: 50 }, (_, i) => sampledIn(DEST_A, observed({ id: `g${i}`, sessionId: null, trace: { trace_id: "trace-9" } }), 0.5));
    expect(new Set(verdicts).size).toBe(1);
  });
});
