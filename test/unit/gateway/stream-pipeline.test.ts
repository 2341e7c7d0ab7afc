import { describe, expect, test } from "bun:test";
import { ClientStream } from "../../../src/gateway/client-stream";
import type { DecodedEvent, UpstreamStream } from "../../../src/gateway/completion-attempt";
import { encoderWriter } from "../../../src/gateway/encoder-writer";
import { pipeStream } from "../../../src/gateway/stream-pipeline";
import type { SseEvent, UpstreamStreamDecoder } from "../../../src/ir/codec";
import type { IRStreamPart } from "../../../src/ir/types";

/** Each upstream event carries its IR parts as JSON, so the test writes the decoded stream directly. */
const decoder = (endParts: IRStreamPart[] = []): UpstreamStreamDecoder => ({
  push: (e: SseEvent) => JSON.parse(e.data) as IRStreamPart[],
  end: () => endParts,
  finished: false,
});
const ev = (...parts: IRStreamPart[]): SseEvent => ({ data: JSON.stringify(parts) });

/** Encodes a part as its type and text, so the client's bytes show what was encoded and in which write. */
const encoder = encoderWriter({
  encode: (p) => `${p.type}${"text" in p ? `:${p.text}` : ""};`,
  finish: () => "finish;",
});

async function* reads(batches: SseEvent[][], onRead?: (i: number) => void, failAfter?: number): AsyncGenerator<SseEvent[]> {
  for (const [i, batch] of batches.entries()) {
    if (failAfter === i) throw new Error("connection reset");
    onRead?.(i);
    yield batch;
  }
}

function upstream(
  firstParts: IRStreamPart[],
  batches: SseEvent[][],
  o: { end?: IRStreamPart[]; failAfter?: number; onRead?: (i: number) => void } = {},
): UpstreamStream & { returned: () => boolean } {
  const events = reads(batches, o.onRead, o.failAfter);
  let returned = false;
  const ret = events.return.bind(events);
  events.return = (v) => {
    returned = true;
    return ret(v);
  };
  return { first: [{ event: ev(...firstParts), parts: firstParts }], events, decoder: decoder(o.end), returned: () => returned };
}

/**
 * Reads the client's body as the server would, from before the first write: the body is a direct
 * stream, so each of its writes is a chunk of its own only to a read already waiting (one that
 * starts after the writes gets them merged). `chunks` closes the stream and gives what was read.
 */
const chunkReaders = new WeakMap<ClientStream, Promise<string[]>>();
function reading(client: ClientStream): ClientStream {
  const dec = new TextDecoder();
  chunkReaders.set(
    client,
    (async () => {
      const out: string[] = [];
      for await (const c of client.body) out.push(typeof c === "string" ? c : dec.decode(c));
      return out;
    })(),
  );
  return client;
}
async function chunks(client: ClientStream): Promise<string[]> {
  client.close();
  return chunkReaders.get(client)!;
}

const start: IRStreamPart = { type: "start", id: "up-1", model: "m", usage: { inputTokens: 7 } };
const text = (t: string): IRStreamPart => ({ type: "text-delta", index: 0, text: t });
const finish: IRStreamPart = {
  type: "finish",
  finishReason: "stop",
  usage: { inputTokens: 0, outputTokens: 3, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
};

describe("pipeStream", () => {
  test("one client write per upstream read; the end part and the text of its event are held back", async () => {
    let now = 100;
    const client = reading(new ClientStream(new AbortController().signal));
    const up = upstream(
      [start, { type: "block-start", index: 0, block: { type: "text" } }],
      [[ev(text("a")), ev(text("b"))], [ev(text("c"), { type: "block-end", index: 0 }, finish)]],
      { onRead: () => (now += 10) },
    );
    const piped = await pipeStream(up, encoder, client, () => now);
    expect(piped.end).toEqual(finish);
    expect(piped.pending).toBe("text-delta:c;block-end;");
    expect(piped.meter).toEqual({
      usage: { inputTokens: 7, outputTokens: 3, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      outputText: "abc",
      firstTokenAt: 100,
      upstreamId: "up-1",
    });
    expect(up.returned()).toBe(true);
    expect(await chunks(client)).toEqual(["start;block-start;", "text-delta:a;text-delta:b;"]);
  });

  test("the events read before the end, in the read that brought it, go out at once; only the end's own event waits for the record", async () => {
    const client = reading(new ClientStream(new AbortController().signal));
    const up = upstream(
      [start, { type: "block-start", index: 0, block: { type: "text" } }],
      [[ev(text("a"))], [ev(text("b")), ev(text("c")), ev({ type: "block-end", index: 0 }, finish)]],
    );
    const piped = await pipeStream(up, encoder, client, () => 0);
    expect(piped.end).toEqual(finish);
    expect(piped.pending).toBe("block-end;");
    expect(await chunks(client)).toEqual(["start;block-start;", "text-delta:a;", "text-delta:b;text-delta:c;"]);
  });

  test("a whole answer in the upstream's first read: its text goes out in one write before the record, the end after", async () => {
    const client = reading(new ClientStream(new AbortController().signal));
    const first: DecodedEvent[] = [
      { event: ev(start, text("a")), parts: [start, text("a")] },
      { event: ev(text("b")), parts: [text("b")] },
      { event: ev(finish), parts: [finish] },
    ];
    const piped = await pipeStream({ ...upstream([], []), first }, encoder, client, () => 0);
    expect(piped.end).toEqual(finish);
    expect(piped.pending).toBe("");
    expect(await chunks(client)).toEqual(["start;text-delta:a;text-delta:b;"]);
  });

  test("an upstream that closes without finishing: its decoder closes what is open, then a 502 error ends it", async () => {
    const client = new ClientStream(new AbortController().signal);
    const piped = await pipeStream(upstream([start, text("a")], [[ev(text("b"))]], { end: [{ type: "block-end", index: 0 }] }), encoder, client, () => 0);
    expect(piped.end).toEqual({ type: "error", status: 502, message: "The provider closed the stream before it finished" });
    expect(piped.pending).toBe("block-end;");
  });

  test("the decoder's own end part (a finish produced at end of stream) ends it normally", async () => {
    const client = new ClientStream(new AbortController().signal);
    const piped = await pipeStream(upstream([start, text("a")], [], { end: [finish] }), encoder, client, () => 0);
    expect(piped.end).toEqual(finish);
  });

  test("a connection that breaks mid-stream ends with a 502 naming the failure", async () => {
    const client = reading(new ClientStream(new AbortController().signal));
    const piped = await pipeStream(upstream([start, text("a")], [[ev(text("b"))], [ev(text("c"))]], { failAfter: 1 }), encoder, client, () => 0);
    expect(piped.end).toEqual({ type: "error", status: 502, message: "The provider stream failed: connection reset" });
    expect(await chunks(client)).toEqual(["start;text-delta:a;", "text-delta:b;"]);
  });

  test("an error part from the upstream is the end; nothing after it is read", async () => {
    const client = new ClientStream(new AbortController().signal);
    const error: IRStreamPart = { type: "error", status: 529, message: "overloaded" };
    const piped = await pipeStream(upstream([start, text("a")], [[ev(error)], [ev(text("never"))]]), encoder, client, () => 0);
    expect(piped.end).toEqual(error);
    expect(piped.meter.outputText).toBe("a");
  });

  test("a client that goes away mid-stream: no end, the upstream is released, nothing more is written", async () => {
    const request = new AbortController();
    const client = new ClientStream(request.signal);
    const up = upstream([start, text("a")], [[ev(text("b"))], [ev(text("c"))], [ev(finish)]], { onRead: (i) => i === 1 && request.abort() });
    const piped = await pipeStream(up, encoder, client, () => 0);
    expect(piped.end).toBeNull();
    expect(client.signal.aborted).toBe(true);
    expect(up.returned()).toBe(true);
    expect(piped.meter.outputText).toBe("abc");
  });

  test("a cancelled body (the client's reader) aborts the client signal", async () => {
    const client = new ClientStream(new AbortController().signal);
    client.write("x");
    await client.body.cancel();
    expect(client.signal.aborted).toBe(true);
    expect(client.write("y")).toBe(false);
  });
});
