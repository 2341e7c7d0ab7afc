// The console's generation log with media generations: the kind beside the model, and with I/O
// logging on, the images and the speech served back from the kept content as files of the console.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { type RerankMock, startRerankMock } from "../../support/media-mocks/cohere-rerank";
import { type AudioMock, startAudioMock } from "../../support/media-mocks/openai-audio";
import { type ImagesMock, startImagesMock } from "../../support/media-mocks/openai-images";
import { type ConsoleGateway, startConsoleGateway } from "../console/harness";
import { type MediaMocks, mediaYaml } from "./setup";

let mocks: MediaMocks;
let cg: ConsoleGateway;
let key: string;
let imageId: string;
let speechId: string;

beforeAll(async () => {
  mocks = {
    imgA: startImagesMock("images-key"),
    imgB: startImagesMock("images-key-b") as ImagesMock,
    audioA: startAudioMock("audio-key"),
    audioB: startAudioMock("audio-key-b") as AudioMock,
    rerankA: startRerankMock("cohere-key"),
    rerankB: startRerankMock("cohere-key-b") as RerankMock,
  };
  cg = await startConsoleGateway({ yaml: mediaYaml(mocks) });
  const workspace = ((await (await cg.gw.api("/api/v1/workspaces")).json()) as { data: Array<{ id: string; slug: string }> }).data.find(
    (w) => w.slug === "default",
  )!;
  expect(
    (
      await cg.gw.api(`/api/v1/workspaces/${workspace.id}`, {
        method: "PATCH",
        json: { is_observability_io_logging_enabled: true, io_logging_sampling_rate: 1 },
      })
    ).status,
  ).toBe(200);
  ({ key } = await createInferenceKey(cg.gw, { name: "media", workspace_id: workspace.id }));
  const image = await cg.gw.api("/api/v1/images", { method: "POST", key, json: { model: "openai/gpt-image-1", prompt: "two foxes", n: 2 } });
  expect(image.status).toBe(200);
  imageId = image.headers.get("x-generation-id")!;
  const speech = await cg.gw.api("/api/v1/audio/speech", { method: "POST", key, json: { model: "openai/tts-1", input: "hello", response_format: "mp3" } });
  await speech.arrayBuffer();
  speechId = speech.headers.get("x-generation-id")!;
});
afterAll(async () => {
  await cg.close();
  for (const m of Object.values(mocks)) m.stop();
});

test("the log names each media generation's kind, and the record its images", async () => {
  const log = (await (await cg.call("owner", "GET", "/console/api/generations")).json()) as { data: Array<{ id: string; api_type: string }> };
  expect(
    log.data
      .filter((g) => [imageId, speechId].includes(g.id))
      .map((g) => g.api_type)
      .sort(),
  ).toEqual(["image", "tts"]);
  const record = (await (await cg.call("owner", "GET", `/console/api/generations/${imageId}`)).json()) as { data: { num_media_completion: number } };
  expect(record.data.num_media_completion).toBe(2);
});

test("the kept content: the prompt, and the images as data URLs the console serves back as images", async () => {
  const content = (await (await cg.call("owner", "GET", `/console/api/generations/${imageId}/content`)).json()) as {
    data: { input: { prompt: string }; output: { completion: string } };
  };
  expect(content.data.input.prompt).toBe("two foxes");
  expect(content.data.output.completion.split("\n").map((l) => l.slice(0, 22))).toEqual(["data:image/png;base64,", "data:image/png;base64,"]);
  for (const i of [0, 1]) {
    const res = await cg.call("owner", "GET", `/console/api/generations/${imageId}/media/${i}`);
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(mocks.imgA.image(i));
  }
  expect((await cg.call("owner", "GET", `/console/api/generations/${imageId}/media/2`)).status).toBe(404);
});

test("the speech, playable: its audio bytes with the answer's Content-Type; for nobody else", async () => {
  const res = await cg.call("owner", "GET", `/console/api/generations/${speechId}/media/0`);
  expect([res.status, res.headers.get("content-type")]).toEqual([200, "audio/mpeg"]);
  expect(new Uint8Array(await res.arrayBuffer())).toEqual(mocks.audioA.speechBytes());
  // the member sees the team workspace only; nobody signed in sees nothing
  expect((await cg.call("member", "GET", `/console/api/generations/${speechId}/media/0`)).status).toBe(404);
  expect((await cg.call(null, "GET", `/console/api/generations/${speechId}/media/0`)).status).toBe(401);
});
