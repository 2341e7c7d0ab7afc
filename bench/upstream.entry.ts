// Child process: the mock upstream every target ultimately calls. Short replies
// with usage; streams are ~20 small chunks with no artificial delay.
import { startMockUpstream } from "../test/support/mock-upstream";
import { announceReady, onTerminate } from "./lib/child";

const STREAM_CHUNKS = Array.from({ length: 20 }, (_, i) => `tok${i} `);
const REPLY = "Hello from the bench upstream.";

const up = await startMockUpstream();
up.setHandler((req) => {
  // the mock records every request; keep that list from growing for the whole run
  if (up.requests.length > 256) up.requests.splice(0, up.requests.length - 1);
  return { text: req.body?.stream ? STREAM_CHUNKS : REPLY, usage: { input: 12, output: 20 } };
});
onTerminate(() => up.stop());
announceReady({ url: up.url });
