import { describe, expect, test } from "bun:test";
import { openaiResponsesInbound, openaiResponsesUpstream } from "../../../src/formats/openai-responses";
import { decodeResponsesResult } from "../../../src/formats/openai-responses/decode-result";
import { rewriteResponsesResult } from "../../../src/formats/openai-responses/passthrough";
import { renderResponsesEvents, renderResponsesJson, renderResponsesStreamError } from "../../support/mock-upstream/render-responses";
import type { MockTurn } from "../../support/mock-upstream/types";
import { sseJson, sseJsonEvents } from "../../support/sse";
import { CTX, drive, passthroughWriter, SETTLEMENT, wholeStream } from "../passthrough-drive";

const RENDER = { body: { stream: true, store: false, max_output_tokens: 8192 }, model: "up-model", created: 1, seq: 7 };
const TURN: MockTurn = {
  reasoning: { text: ["Pl", "an."], encrypted: "enc" },
  text: ["Hel", "lo"],
  toolCalls: [{ id: "call_1", name: "f", arguments: ["{", "}"] }],
  usage: { input: 10, output: 4, cached: 3 },
};
const USAGE = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 3, cache_write_tokens: 0 },
  output_tokens: 4,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 14,
  cost: 0.000123,
  is_byok: false,
  cost_details: { upstream_inference_cost: null, upstream_inference_input_cost: 0.00002, upstream_inference_output_cost: 0.000103 },
};
/** Client ids: reasoning keeps the upstream's (it is looked up by it when sent back), the rest are this answer's own. */
const IDS = ["rs_mock7", "msg_gen-1-abc_1", "fc_gen-1-abc_2"];

/** The mock upstream streams reasoning as summaries: a request asking for them gets them as they came. */
const SUMMARIES = { ...CTX, request: { ...CTX.request, reasoning: { summary: "auto" } } } as typeof CTX;

const withMark = (value: any) => ({ ...value, x_mark: 1, ...(value.response ? { response: { ...value.response, x_resp: 1 } } : {}) });

describe("responses passthrough: JSON", () => {
  test("the upstream's output items under ids of this answer, the gateway's envelope over the upstream's response", () => {
    const raw = withMark(renderResponsesJson(TURN, RENDER));
    const body = rewriteResponsesResult(raw, decodeResponsesResult(raw), SUMMARIES, SETTLEMENT) as any;
    expect(body.output.map((i: any) => i.id)).toEqual(IDS);
    expect(body.output.map(({ id: _id, ...rest }: any) => rest)).toEqual(raw.output.map(({ id: _id, ...rest }: any) => rest));
    expect(body).toMatchObject({
      id: "gen-1-abc",
      model: "t/model",
      status: "completed",
      output_text: "Hello",
      x_mark: 1,
      usage: USAGE,
      service_metadata: SETTLEMENT.serviceMetadata,
    });
    // the request echo is the client's (none here), not the upstream's echo of the gateway's request
    // store: the gateway keeps Responses items unless the request says store: false
    expect([body.max_output_tokens, body.store, body.previous_response_id]).toEqual([null, true, null]);
  });

  test("an upstream that repeats an item id: the second item gets one of this answer's own", () => {
    const raw = { ...(renderResponsesJson(TURN, RENDER) as any) };
    raw.output = [raw.output[0], { ...raw.output[0] }];
    const body = rewriteResponsesResult(raw, decodeResponsesResult(raw), SUMMARIES, SETTLEMENT) as any;
    expect(body.output.map((i: any) => i.id)).toEqual(["rs_mock7", "rs_gen-1-abc_1"]);
  });
});

describe("responses passthrough: stream", () => {
  const events = renderResponsesEvents(TURN, RENDER).map((e) => ({ ...e, data: JSON.stringify(withMark(JSON.parse(e.data))) }));

  test("every upstream event goes out renumbered from 0, with this answer's item ids and the gateway's envelope", () => {
    const { written } = drive(openaiResponsesUpstream, passthroughWriter(openaiResponsesInbound, SUMMARIES), events);
    const out = sseJsonEvents(written, "named");
    const upstream = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(out.map((e) => e.data.type)).toEqual(upstream.map((e) => e.type));
    expect(out.map((e) => e.event)).toEqual(upstream.map((e) => e.type));
    expect(out.map((e) => e.data.sequence_number)).toEqual(out.map((_, i) => i));
    expect(out.every((e) => e.data.x_mark === 1)).toBe(true);
    const ids = new Set(out.flatMap((e) => [e.data.item?.id, e.data.item_id].filter((x) => x !== undefined)));
    expect(ids).toEqual(new Set(IDS));
    expect(out[0]!.data.response).toMatchObject({ id: "gen-1-abc", model: "t/model", status: "in_progress", x_resp: 1, output: [], usage: null });
    const deltas = out.filter((e) => e.data.type === "response.output_text.delta");
    // OpenRouter's clients need the call's name on its arguments' done event (OpenAI leaves it out)
    const argsDone = out.find((e) => e.data.type === "response.function_call_arguments.done")!.data;
    expect([argsDone.item_id, argsDone.name, argsDone.arguments]).toEqual(["fc_gen-1-abc_2", "f", "{}"]);
    expect(upstream.find((e) => e.type === "response.function_call_arguments.done").name).toBeUndefined();
    expect(deltas.map((e) => [e.data.item_id, e.data.delta])).toEqual([
      ["msg_gen-1-abc_1", "Hel"],
      ["msg_gen-1-abc_1", "lo"],
    ]);
  });

  test("response.completed is held back, then written with the charged usage over the upstream's final response", () => {
    const writer = passthroughWriter(openaiResponsesInbound, SUMMARIES);
    const { written, end } = drive(openaiResponsesUpstream, writer, events);
    expect(written).not.toContain("response.completed");
    const [completed] = sseJsonEvents(writer.finish(end as any, SETTLEMENT), "named");
    expect(completed!.event).toBe("response.completed");
    expect(completed!.data.sequence_number).toBe(sseJsonEvents(written, "named").length);
    expect(completed!.data.x_mark).toBe(1);
    expect(completed!.data.response).toMatchObject({ id: "gen-1-abc", model: "t/model", status: "completed", x_resp: 1, output_text: "Hello", usage: USAGE });
    expect(completed!.data.response.output.map((i: any) => i.id)).toEqual(IDS);
  });

  test("a final response that carries no output (some compatible servers): the streamed items are its output", () => {
    const bare = events.map((e) =>
      e.event === "response.completed"
        ? { ...e, data: JSON.stringify({ ...JSON.parse(e.data), response: { ...JSON.parse(e.data).response, output: [] } }) }
        : e,
    );
    const [completed] = sseJsonEvents(wholeStream(openaiResponsesUpstream, passthroughWriter(openaiResponsesInbound, SUMMARIES), bare), "named").slice(-1);
    expect(completed!.data.response.output).toEqual((renderResponsesJson(TURN, RENDER) as any).output.map((item: any, i: number) => ({ ...item, id: IDS[i] })));
    expect(completed!.data.response.output_text).toBe("Hello");
  });

  test("an upstream failure ends with response.failed, numbered after the upstream's events, holding the items so far", () => {
    const failing = [...events.slice(0, 6), ...renderResponsesStreamError(TURN, RENDER, 6, "boom", "server_error")];
    const out = sseJsonEvents(wholeStream(openaiResponsesUpstream, passthroughWriter(openaiResponsesInbound, SUMMARIES), failing), "named");
    const failed = out.at(-1)!;
    expect(failed.event).toBe("response.failed");
    expect(failed.data.sequence_number).toBe(out.length - 1);
    expect(failed.data.response).toMatchObject({ id: "gen-1-abc", status: "failed", error: { code: "server_error", message: "boom" } });
    expect(failed.data.response.output.map((i: any) => i.id)).toEqual(["rs_mock7"]);
  });
});

describe("responses passthrough: reasoning in the shape the request asked for", () => {
  const RAW_TURN: MockTurn = { reasoning: { text: ["Pl", "an."], summary: false }, text: "Hi" };
  const streamOf = (turn: MockTurn) => renderResponsesEvents(turn, RENDER);

  test("JSON: summaries become reasoning_text without reasoning.summary; reasoning_text becomes a summary with it", () => {
    const summarised = renderResponsesJson(TURN, RENDER) as any;
    const asRaw = rewriteResponsesResult(summarised, decodeResponsesResult(summarised), CTX, SETTLEMENT) as any;
    expect(asRaw.output[0]).toEqual({
      type: "reasoning",
      id: "rs_mock7",
      summary: [],
      content: [{ type: "reasoning_text", text: "Plan." }],
      encrypted_content: "enc",
    });
    const raw = renderResponsesJson(RAW_TURN, RENDER) as any;
    const asSummary = rewriteResponsesResult(raw, decodeResponsesResult(raw), SUMMARIES, SETTLEMENT) as any;
    expect(asSummary.output[0]).toEqual({ type: "reasoning", id: "rs_mock7", summary: [{ type: "summary_text", text: "Plan." }] });
  });

  test("stream, summaries to reasoning_text: one content part, its deltas, closed before the item", () => {
    const out = sseJson(wholeStream(openaiResponsesUpstream, passthroughWriter(openaiResponsesInbound, CTX), streamOf(TURN)), "named");
    const reasoning = out.filter((e) => e.item_id === "rs_mock7" || e.item?.id === "rs_mock7");
    expect(reasoning.map((e) => [e.type, e.delta ?? e.text ?? e.part?.type ?? null])).toEqual([
      ["response.output_item.added", null],
      ["response.content_part.added", "reasoning_text"],
      ["response.reasoning_text.delta", "Pl"],
      ["response.reasoning_text.delta", "an."],
      ["response.reasoning_text.done", "Plan."],
      ["response.content_part.done", "reasoning_text"],
      ["response.output_item.done", null],
    ]);
    expect(reasoning.at(-1).item).toEqual({
      type: "reasoning",
      id: "rs_mock7",
      summary: [],
      content: [{ type: "reasoning_text", text: "Plan." }],
      encrypted_content: "enc",
    });
    expect(out.map((e) => e.sequence_number)).toEqual(out.map((_, i) => i));
    expect(out.at(-1).response.output[0].content).toEqual([{ type: "reasoning_text", text: "Plan." }]);
  });

  test("stream, reasoning_text to summaries: summary part 0, its deltas, closed before the item", () => {
    const out = sseJson(wholeStream(openaiResponsesUpstream, passthroughWriter(openaiResponsesInbound, SUMMARIES), streamOf(RAW_TURN)), "named");
    const reasoning = out.filter((e) => e.item_id === "rs_mock7" || e.item?.id === "rs_mock7");
    expect(reasoning.map((e) => [e.type, e.delta ?? e.text ?? e.part?.type ?? null])).toEqual([
      ["response.output_item.added", null],
      ["response.reasoning_summary_part.added", "summary_text"],
      ["response.reasoning_summary_text.delta", "Pl"],
      ["response.reasoning_summary_text.delta", "an."],
      ["response.reasoning_summary_text.done", "Plan."],
      ["response.reasoning_summary_part.done", "summary_text"],
      ["response.output_item.done", null],
    ]);
    expect(reasoning.at(-1).item).toEqual({ type: "reasoning", id: "rs_mock7", summary: [{ type: "summary_text", text: "Plan." }] });
  });
});
