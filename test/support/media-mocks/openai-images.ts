/**
 * A loopback OpenAI Images API: POST /v1/images/generations answers `n` images as `b64_json`
 * (gpt-image-1's way, with its token usage) or as URLs served by the mock itself (dall-e-3's way).
 */
import { type MockBase, openaiError, patternBytes, startMockBase } from "./mock-base";

export type ImagesMock = MockBase & {
  /** the JSON body of every generation request, in order */
  bodies: Array<Record<string, unknown>>;
  /** how the next answers carry the images */
  answer: "b64_json" | "url";
  /** images answered regardless of `n` (a provider may return fewer); undefined: n */
  returned: number | undefined;
  /** usage.input_tokens / output_tokens of each answer; null: no usage */
  usage: { input_tokens: number; output_tokens: number } | null;
  /** URL downloads served */
  downloads: number;
  /** the bytes of the i-th image of an answer (replaceable: a browser test answers real PNGs) */
  image(i: number): Uint8Array<ArrayBuffer>;
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function startImagesMock(key = "images-key"): ImagesMock {
  const image = (i: number): Uint8Array<ArrayBuffer> => new Uint8Array([...PNG_SIGNATURE, ...patternBytes(2048, i)]);
  const mock: ImagesMock = {
    ...startMockBase(
      key,
      async (request, path) => {
        if (request.method === "POST" && path === "/v1/images/generations") {
          const body = (await request.json()) as Record<string, unknown>;
          mock.bodies.push(body);
          const n = mock.returned ?? (typeof body.n === "number" ? body.n : 1);
          const origin = new URL(request.url).origin;
          const data = Array.from({ length: n }, (_, i) =>
            mock.answer === "url"
              ? { url: `${origin}/files/image-${i}.png?se=2099`, revised_prompt: body.prompt }
              : { b64_json: Buffer.from(mock.image(i)).toString("base64") },
          );
          return Response.json({
            created: 1_713_833_628,
            data,
            ...(mock.usage
              ? {
                  usage: {
                    total_tokens: mock.usage.input_tokens + mock.usage.output_tokens,
                    ...mock.usage,
                    input_tokens_details: { text_tokens: mock.usage.input_tokens, image_tokens: 0 },
                  },
                }
              : {}),
          });
        }
        const file = /^\/files\/image-(\d+)\.png$/.exec(path);
        if (request.method === "GET" && file) {
          mock.downloads++;
          return new Response(mock.image(Number(file[1])), { headers: { "content-type": "image/png" } });
        }
        return Response.json(openaiError(`no route ${request.method} ${path}`), { status: 404 });
      },
      openaiError,
      "/v1",
    ),
    bodies: [],
    answer: "b64_json",
    returned: undefined,
    usage: { input_tokens: 50, output_tokens: 4160 },
    downloads: 0,
    image,
  };
  return mock;
}
