/**
 * Each upstream's job statuses mapped to the job's own, row by row for the three adapters, and
 * for any status string at all: exactly one outcome, never a throw. Unknown statuses are
 * in_progress (not failed): upstreams add statuses (Replicate's `aborted`, 2025), and killing a job
 * that may still succeed is worse than waiting for the lifecycle's deadline.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { falStatusOutcome } from "../../../src/videos/adapters/fal-queue";
import { veoOperationOutcome } from "../../../src/videos/adapters/gemini-veo";
import { replicatePredictionOutcome } from "../../../src/videos/adapters/replicate";

const FAL_TABLE = [
  ["IN_QUEUE", "pending"],
  ["IN_PROGRESS", "in_progress"],
  ["COMPLETED", "completed"],
] as const;

const REPLICATE_TABLE = [
  ["starting", "pending"],
  ["processing", "in_progress"],
  ["succeeded", "completed"],
  ["failed", "failed"],
  ["aborted", "failed"],
  ["canceled", "cancelled"],
] as const;

const VEO_TABLE = [
  [{ name: "op" }, "in_progress"],
  [{ name: "op", done: false }, "in_progress"],
  [{ name: "op", done: true, response: { generateVideoResponse: { generatedSamples: [{ video: { uri: "https://x.test/v" } }] } } }, "completed"],
  [{ name: "op", done: true, error: { code: 13, message: "internal" } }, "failed"],
  [{ name: "op", done: true, response: { generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ["celebrity"] } } }, "failed"],
  [{ name: "op", done: true, response: { generateVideoResponse: {} } }, "failed"],
] as const;

describe("upstream status table", () => {
  test.each(FAL_TABLE)("fal %s → %s", (status, kind) => expect(falStatusOutcome(status).kind).toBe(kind));

  test.each(REPLICATE_TABLE)("replicate %s → %s", (status, kind) =>
    expect(replicatePredictionOutcome({ status, output: "https://x.test/v.mp4" }).kind).toBe(kind),
  );

  test.each(VEO_TABLE)("veo %j → %s", (operation, kind) => expect(veoOperationOutcome(operation, "k").kind).toBe(kind));

  test("veo filtered is content_filtered; done without samples or filter is upstream_error", () => {
    expect(veoOperationOutcome(VEO_TABLE[4][0], "k")).toEqual({ kind: "failed", code: "content_filtered", message: "celebrity" });
    expect(veoOperationOutcome(VEO_TABLE[5][0], "k")).toEqual({ kind: "failed", code: "upstream_error", message: "Veo operation finished without a video" });
  });

  test("replicate succeeded without an output is a failure, not an empty completion", () => {
    expect(replicatePredictionOutcome({ status: "succeeded", output: null })).toEqual({
      kind: "failed",
      code: "upstream_error",
      message: "Replicate prediction succeeded without an output",
    });
  });
});

const KINDS = ["pending", "in_progress", "completed", "failed", "cancelled"];
const unknownTo = (known: readonly string[]) => fc.string().filter((s) => !known.includes(s));

describe("any status string", () => {
  test("fal: one outcome each; unknown is in_progress", () => {
    fc.assert(fc.property(fc.string(), (status) => KINDS.includes(falStatusOutcome(status).kind)));
    fc.assert(fc.property(unknownTo(FAL_TABLE.map(([s]) => s)), (status) => falStatusOutcome(status).kind === "in_progress"));
  });

  test("replicate: one outcome each, whatever the other fields; unknown is in_progress", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (status, output, error) =>
        KINDS.includes(replicatePredictionOutcome({ status, output, error }).kind),
      ),
    );
    fc.assert(fc.property(unknownTo(REPLICATE_TABLE.map(([s]) => s)), (status) => replicatePredictionOutcome({ status }).kind === "in_progress"));
  });

  test("veo: any operation body gives one outcome; only done:true ends it", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("name", "done", "error", "response", "metadata"), fc.anything()), (operation) => {
        const outcome = veoOperationOutcome(operation, "k");
        return KINDS.includes(outcome.kind) && (operation.done === true) === (outcome.kind !== "in_progress");
      }),
    );
  });
});
