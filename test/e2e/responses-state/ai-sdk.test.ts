// The AI SDK's default Responses path (`openai.responses(model)`, store left on) sends earlier
// answers back as `item_reference`s on every later turn. Three turns, text and reasoning, with
// generateText and streamText, against every upstream format: the client refers to the ids the
// gateway returned, and the upstream receives exactly the earlier items.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type ModelMessage, streamText } from "ai";
import { type Harness, MODEL, REASONING_UPSTREAMS, startHarness, UPSTREAMS, type UpstreamKind, WIRE } from "../inference/harness";

let h: Harness;
/** what the AI SDK sent to the gateway, request by request */
let sent: any[];
let openai: ReturnType<typeof createOpenAI>;

beforeAll(async () => {
  h = await startHarness();
  openai = createOpenAI({
    baseURL: `${h.gw.url}/api/v1`,
    apiKey: h.key,
    fetch: (async (url: string | URL | Request, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return fetch(url, init);
    }) as typeof fetch,
  });
});
afterAll(() => h.close());
beforeEach(() => {
  h.up.reset();
  sent = [];
});

const QUESTIONS = ["q1", "q2", "q3"];
const ANSWERS = ["A1", "A2", "A3"];
const THOUGHTS = ["Plan one.", "Plan two.", "Plan three."];

/** The history an upstream receives at turn `turn` (0-based), in its own format. */
function expectedHistory(upstream: UpstreamKind, turn: number, reasoning: boolean): unknown[] {
  const history: unknown[] = [];
  for (let i = 0; i <= turn; i++) {
    const question = QUESTIONS[i]!;
    if (WIRE[upstream] === "gemini") history.push({ role: "user", parts: [{ text: question }] });
    else if (WIRE[upstream] === "openai-responses") history.push({ type: "message", role: "user", content: [{ type: "input_text", text: question }] });
    else if (WIRE[upstream] === "openai-chat") history.push({ role: "user", content: question });
    else if (upstream === "bedrock") history.push({ role: "user", content: [{ text: question }] });
    else history.push({ role: "user", content: [{ type: "text", text: question }] });
    if (i === turn) break;
    const answer = ANSWERS[i]!;
    if (WIRE[upstream] === "gemini") {
      // Gemini takes its signature back on the text it came with, never the thought text
      history.push({ role: "model", parts: [reasoning ? { text: answer, thoughtSignature: `sig-${i + 1}` } : { text: answer }] });
    } else if (WIRE[upstream] === "openai-responses") {
      if (reasoning)
        history.push({ type: "reasoning", id: `rs_mock${i + 1}`, summary: [{ type: "summary_text", text: THOUGHTS[i] }], encrypted_content: `enc-${i + 1}` });
      history.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: answer, annotations: [] }] });
    } else if (WIRE[upstream] === "openai-chat") {
      // Chat upstreams take no reasoning back
      history.push({ role: "assistant", content: answer });
    } else if (upstream === "bedrock") {
      // Bedrock's reasoning goes back as it came: the text with its signature, and the redacted bytes
      const thinking = reasoning
        ? [{ reasoningContent: { reasoningText: { text: THOUGHTS[i], signature: `sig-${i + 1}` } } }, { reasoningContent: { redactedContent: `enc-${i + 1}` } }]
        : [];
      history.push({ role: "assistant", content: [...thinking, { text: answer }] });
    } else {
      // the mock's encrypted reasoning is an Anthropic redacted_thinking block
      const thinking = reasoning
        ? [
            { type: "thinking", thinking: THOUGHTS[i], signature: `sig-${i + 1}` },
            { type: "redacted_thinking", data: `enc-${i + 1}` },
          ]
        : [];
      history.push({ role: "assistant", content: [...thinking, { type: "text", text: answer }] });
    }
  }
  return history;
}

const upstreamHistory = (upstream: UpstreamKind, body: any) =>
  WIRE[upstream] === "gemini" ? body.contents : WIRE[upstream] === "openai-responses" ? body.input : body.messages;

type Turn = { text: string; reasoning: string; messages: ModelMessage[] };

async function ask(mode: "generateText" | "streamText", model: string, messages: ModelMessage[], reasoning: boolean): Promise<Turn> {
  const options = {
    model: openai.responses(model),
    messages,
    ...(reasoning ? { providerOptions: { openai: { forceReasoning: true, reasoningEffort: "low" } } } : {}),
  };
  if (mode === "generateText") {
    const r = await generateText(options);
    return { text: r.text, reasoning: r.reasoningText ?? "", messages: r.response.messages };
  }
  const r = streamText(options);
  const [text, reasoningText, response] = await Promise.all([r.text, r.reasoningText, r.response]);
  return { text, reasoning: reasoningText ?? "", messages: response.messages };
}

describe("AI SDK multi-turn over item_reference", () => {
  for (const upstream of UPSTREAMS) {
    for (const mode of ["generateText", "streamText"] as const) {
      for (const reasoning of REASONING_UPSTREAMS.includes(upstream) ? [false, true] : [false]) {
        test(`${upstream} ${mode} ${reasoning ? "reasoning" : "text"}`, async () => {
          for (let i = 0; i < 3; i++) {
            h.up.enqueue(
              reasoning
                ? { reasoning: { text: THOUGHTS[i]!, encrypted: `enc-${i + 1}`, signature: `sig-${i + 1}` }, text: ANSWERS[i]! }
                : { text: ANSWERS[i]! },
            );
          }
          const messages: ModelMessage[] = [];
          const itemIds: string[][] = [];
          for (let turn = 0; turn < 3; turn++) {
            messages.push({ role: "user", content: QUESTIONS[turn]! });
            const answer = await ask(mode, MODEL[upstream], messages, reasoning);
            expect(answer.text).toBe(ANSWERS[turn]!);
            if (reasoning) expect(answer.reasoning).toBe(THOUGHTS[turn]!);
            // the ids the gateway returned for this answer
            const ids = answer.messages.flatMap((m) =>
              Array.isArray(m.content) ? m.content.map((p: any) => p.providerOptions?.openai?.itemId).filter(Boolean) : [],
            );
            itemIds.push(ids);
            messages.push(...answer.messages);
            expect(upstreamHistory(upstream, h.up.requests[turn]!.body)).toEqual(expectedHistory(upstream, turn, reasoning));
          }
          // the client sent the earlier answers as references to exactly those ids
          const references = (body: any) => body.input.filter((item: any) => item.type === "item_reference").map((item: any) => item.id);
          expect(references(sent[0])).toEqual([]);
          expect(references(sent[1])).toEqual(itemIds[0]!);
          expect(references(sent[2])).toEqual([...itemIds[0]!, ...itemIds[1]!]);
          // Anthropic (on Vertex and Bedrock too): thinking, redacted thinking and the message; Gemini: the thought, the message and the signature it carried
          const wire = WIRE[upstream];
          expect(itemIds[0]!.length).toBe(reasoning && wire !== "openai-responses" && wire !== "openai-chat" ? 3 : reasoning ? 2 : 1);
        });
      }
    }
  }
});
