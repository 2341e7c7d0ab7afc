// What the bench upstream answers, shared by upstream.entry.ts and the checks in
// overhead.ts: a non-streaming chat completion of about 1 KB of JSON, and a stream
// of the same text in 50 content chunks.

/** Content chunks per streamed answer (plus the role, finish and usage chunks and [DONE]). */
export const STREAM_CHUNK_COUNT = 50;
/** Characters of answer text; with the chat.completion envelope (id, usage details, ...) the JSON is about 1 KB. */
const REPLY_CHARS = 483;

export const REPLY_START = "Hello from the bench upstream.";
export const REPLY_END = "End of the bench reply.";

const filler = " The gateway reads this answer, accounts for it and hands it on to the caller.";
const middle = filler.repeat(Math.ceil(REPLY_CHARS / filler.length)).slice(0, REPLY_CHARS - REPLY_START.length - REPLY_END.length - 1);

export const REPLY_TEXT = `${REPLY_START}${middle} ${REPLY_END}`;

/** REPLY_TEXT cut into `count` pieces, the last one holding REPLY_END whole. */
export function replyPieces(count: number): string[] {
  const head = REPLY_TEXT.slice(0, REPLY_TEXT.length - REPLY_END.length);
  const n = count - 1;
  const pieces = Array.from({ length: n }, (_, i) => head.slice(Math.round((i * head.length) / n), Math.round(((i + 1) * head.length) / n)));
  return [...pieces, REPLY_END];
}

export const STREAM_PIECES: string[] = replyPieces(STREAM_CHUNK_COUNT);

/** Output tokens the mock reports (about four characters a token). */
export const REPLY_TOKENS = Math.round(REPLY_TEXT.length / 4);
