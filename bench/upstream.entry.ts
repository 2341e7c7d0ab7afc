// Child process: the mock upstream every target ultimately calls
// (test/support/mock-upstream.ts, configured through its options): a chat completion
// of about 1 KB of JSON, or the same text streamed in 50 content chunks, with usage,
// and no artificial delay. See lib/reply.ts.
import { startMockUpstream } from "../test/support/mock-upstream";
import { announceReady, onTerminate } from "./lib/child";
import { REPLY_TEXT, REPLY_TOKENS, STREAM_PIECES } from "./lib/reply";

const up = await startMockUpstream();
up.setHandler((req) => {
  // the mock records every request; keep that list from growing for the whole run
  if (up.requests.length > 256) up.requests.splice(0, up.requests.length - 1);
  // Bedrock streams from a path of its own, Gemini asks for a stream in its path: neither in a body field
  const stream = req.body?.stream === true || req.path.endsWith("/converse-stream") || req.path.includes(":streamGenerateContent");
  return { text: stream ? STREAM_PIECES : REPLY_TEXT, usage: { input: 12, output: REPLY_TOKENS } };
});
onTerminate(() => up.stop());
announceReady({ url: up.url });
