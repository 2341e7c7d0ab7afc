import { describe, expect, test } from "bun:test";
import { parseRange } from "../../../src/modules/videos/content";
import { openAiSize } from "../../../src/videos/adapters/openai-videos";
import { nextPollDelayMs } from "../../../src/videos/jobs/poll-delay";
import { canMove } from "../../../src/videos/jobs/transitions";
import { spokenDuration } from "../../../src/videos/jobs/video-poll";

describe("video job rules", () => {
  test("transitions only move forward; only a completed job expires", () => {
    expect(canMove("pending", "in_progress")).toBe(true);
    expect(canMove("pending", "completed")).toBe(true);
    expect(canMove("in_progress", "failed")).toBe(true);
    expect(canMove("in_progress", "pending")).toBe(false);
    expect(canMove("completed", "failed")).toBe(false);
    expect(canMove("failed", "completed")).toBe(false);
    expect(canMove("completed", "expired")).toBe(true);
    expect(canMove("failed", "expired")).toBe(false);
    expect(canMove("expired", "completed")).toBe(false);
  });

  test("the poll delay grows by half from the initial to the maximum, ±10 %, never past the deadline", () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 9].map((a) => nextPollDelayMs(a, 1000, 3000, 1e9, mid))).toEqual([1000, 1500, 2250, 3000, 3000, 3000]);
    expect(nextPollDelayMs(1, 1000, 3000, 1e9, () => 0)).toBe(900);
    expect(nextPollDelayMs(1, 1000, 3000, 1e9, () => 1)).toBe(1100);
    expect(nextPollDelayMs(4, 1000, 3000, 400, mid)).toBe(401);
    expect(nextPollDelayMs(4, 1000, 3000, -5, mid)).toBe(1);
  });

  test("one byte range: start-end, open end, suffix; unsatisfiable ones are null", () => {
    expect(parseRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=900-5000", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange("bytes=1000-", 1000)).toBeNull();
    expect(parseRange("bytes=5-4", 1000)).toBeNull();
    expect(parseRange("bytes=0-1,5-6", 1000)).toBeNull();
    expect(parseRange("items=0-1", 1000)).toBeNull();
  });

  test("deadline wording and OpenAI sizes", () => {
    expect(spokenDuration(3_000)).toBe("3 seconds");
    expect(spokenDuration(3_600_000)).toBe("60 minutes");
    expect(openAiSize({ resolution: "720p", aspectRatio: "9:16" })).toBe("720x1280");
    expect(openAiSize({ aspectRatio: "16:9" })).toBe("1280x720");
    expect(openAiSize({ size: "1792x1024", resolution: "720p" })).toBe("1792x1024");
    expect(openAiSize({})).toBeUndefined();
  });
});
