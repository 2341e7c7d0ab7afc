// What the upstream API cannot carry is refused when the request arrives, whatever a model's
// configuration lists: the OpenAI-shaped Videos API takes one first-frame image and no references.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type OpenAiVideoMock, startOpenAiVideoMock } from "../../support/video-mocks/openai-videos";
import { videoYaml } from "./setup";

const FRAMED = `  - id: openai/framed
    endpoints:
      - { provider: openai, model: sora-2, supported_durations: [4], supported_frame_images: [first_frame, last_frame] }
`;

let up: OpenAiVideoMock;
let gw: TestGateway;
let key: string;
beforeAll(async () => {
  up = startOpenAiVideoMock();
  gw = await startTestGateway({ yaml: videoYaml(up.url, FRAMED), env: { WORKERS: "0" } });
  key = (await createInferenceKey(gw)).key;
});
afterAll(async () => {
  await gw.close();
  up.stop();
});

const submit = (body: Record<string, unknown>) => gw.api("/api/v1/videos", { method: "POST", key, json: { prompt: "a cat", duration: 4, ...body } });
const image = (frame_type: string) => ({ type: "image_url", image_url: { url: "https://example.com/a.png" }, frame_type });

test("a last frame: 400 naming it, with the frames the endpoint can take", async () => {
  const res = await submit({ model: "openai/framed", frame_images: [image("last_frame")] });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({
    error: {
      code: 400,
      message: 'frame_images[0].frame_type "last_frame" is not supported by openai/framed; allowed values: first_frame',
      metadata: { field: "frame_images[0].frame_type", allowed: ["first_frame"] },
    },
  });
  expect((await submit({ model: "openai/framed", frame_images: [image("first_frame")] })).status).toBe(202);
  expect(((await (await gw.api("/api/v1/videos/models")).json()) as any).data.find((m: any) => m.id === "openai/framed").supported_frame_images).toEqual([
    "first_frame",
  ]);
});

test("input_references: 400 naming them; with frame_images they are ignored, as OpenRouter does", async () => {
  const refs = [{ type: "image_url", image_url: { url: "https://example.com/r.png" } }];
  const res = await submit({ model: "openai/sora-2", input_references: refs });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({
    error: { code: 400, message: "input_references is not supported by openai/sora-2", metadata: { field: "input_references", allowed: [] } },
  });
  expect((await submit({ model: "openai/framed", input_references: refs, frame_images: [image("first_frame")] })).status).toBe(202);
});
