import { badRequest } from "../errors";
import type { VideoGenerationRequestBody } from "./request-schema";
import { type AskedShape, checkShapeAgrees, checkShapeMade, derivedSizeFor, takesShape } from "./request-shape";
import { flatPassthrough, type StoredVideoRequest } from "./stored-request";
import { capabilityUnion as union, type VideoCatalogModel, type VideoEndpoint } from "./video-catalog";

/** A request checked against the model: the parameters every candidate takes, and the candidates in order. */
export type ValidatedVideoRequest = { params: StoredVideoRequest["params"]; passthrough: StoredVideoRequest["passthrough"]; candidates: VideoEndpoint[] };

function notAllowed(field: string, value: unknown, allowed: readonly unknown[], model: string): never {
  if (allowed.length === 0) throw badRequest(`${field} is not supported by ${model}`, { field, allowed: [] });
  throw badRequest(`${field} ${JSON.stringify(value)} is not supported by ${model}; allowed values: ${allowed.join(", ")}`, { field, allowed });
}

function checkIn<T>(field: string, value: T | undefined, allowed: readonly T[], model: string): void {
  if (value !== undefined && !allowed.includes(value)) notAllowed(field, value, allowed, model);
}

/** input_references count only without frame_images, which win when both are sent (OpenRouter's rule) */
const referenced = (body: VideoGenerationRequestBody): boolean => (body.frame_images?.length ?? 0) === 0 && (body.input_references?.length ?? 0) > 0;

const UNSUPPORTED_FIELDS = ["previous_job_id", "creativity", "upscale_factor"] as const;

const askedShapeOf = (body: VideoGenerationRequestBody): AskedShape => ({ aspectRatio: body.aspect_ratio, resolution: body.resolution, size: body.size });

/** Does this endpoint take every field the request set but its shape (with the chosen duration and audio)? */
function acceptsAllButShape(e: VideoEndpoint, body: VideoGenerationRequestBody, duration: number, audio: boolean): boolean {
  const c = e.capabilities;
  return (
    c.durations.includes(duration) &&
    (body.seed === undefined || c.seed) &&
    (!audio || c.generateAudio || body.generate_audio === undefined) &&
    (body.frame_images ?? []).every((f) => c.frameImages.includes(f.frame_type)) &&
    (!referenced(body) || c.inputReferences)
  );
}

/**
 * Checks every field against what the model's usable endpoints advertise (a 400 names the field
 * and the allowed values), then keeps the endpoints that take the whole request, in order.
 */
export function validateVideoRequest(body: VideoGenerationRequestBody, model: VideoCatalogModel, usable: readonly VideoEndpoint[]): ValidatedVideoRequest {
  const id = model.id;
  for (const field of UNSUPPORTED_FIELDS) if (body[field] !== undefined) throw badRequest(`${field} is not supported by ${id}`, { field, allowed: [] });
  const framed = (body.frame_images?.length ?? 0) > 0;
  if ((body.prompt === undefined || body.prompt.trim() === "") && !framed) throw badRequest("prompt is required", { field: "prompt" });
  checkIn(
    "duration",
    body.duration,
    union(usable, (c) => c.durations),
    id,
  );
  checkIn(
    "resolution",
    body.resolution,
    union(usable, (c) => c.resolutions),
    id,
  );
  checkIn(
    "aspect_ratio",
    body.aspect_ratio,
    union(usable, (c) => c.aspectRatios),
    id,
  );
  checkIn(
    "size",
    body.size,
    union(usable, (c) => c.sizes),
    id,
  );
  const shape = askedShapeOf(body);
  checkShapeAgrees(shape, usable);
  checkShapeMade(shape, usable, id);
  if (body.seed !== undefined && !usable.some((e) => e.capabilities.seed)) notAllowed("seed", body.seed, [], id);
  if (body.generate_audio === true && !usable.some((e) => e.capabilities.generateAudio)) notAllowed("generate_audio", true, [false], id);
  body.frame_images?.forEach((f, i) =>
    checkIn(
      `frame_images[${i}].frame_type`,
      f.frame_type,
      union(usable, (c) => c.frameImages),
      id,
    ),
  );
  if (referenced(body) && !usable.some((e) => e.capabilities.inputReferences)) notAllowed("input_references", body.input_references!.length, [], id);
  const passthrough = checkPassthrough(body, model, usable);

  const first = usable.find((e) => body.duration === undefined || e.capabilities.durations.includes(body.duration))!;
  const duration = body.duration ?? Math.min(...first.capabilities.durations);
  const audio = body.generate_audio ?? first.capabilities.generateAudio;
  const rest = usable.filter((e) => acceptsAllButShape(e, body, duration, audio));
  // derived over the endpoints that take the rest, so that an endpoint out of play picks no size
  const derivedSize = derivedSizeFor(shape, rest);
  const candidates = rest.filter((e) => takesShape(e, shape, derivedSize));
  if (candidates.length === 0) {
    const given = ["duration", "resolution", "aspect_ratio", "size", "seed", "generate_audio", "frame_images", "input_references"].filter(
      (f) => body[f as keyof VideoGenerationRequestBody] !== undefined,
    );
    throw badRequest(`no endpoint of ${id} takes this combination of ${given.join(", ")}`, { fields: given });
  }
  return {
    params: {
      prompt: body.prompt ?? "",
      durationSeconds: duration,
      generateAudio: audio,
      ...(body.resolution !== undefined ? { resolution: body.resolution } : {}),
      ...(body.aspect_ratio !== undefined ? { aspectRatio: body.aspect_ratio } : {}),
      ...(body.size !== undefined ? { size: body.size } : {}),
      ...(derivedSize !== undefined ? { derivedSize } : {}),
      ...(body.seed !== undefined ? { seed: body.seed } : {}),
      ...(framed ? { frameImages: body.frame_images!.map((f) => ({ frame: f.frame_type, url: f.image_url.url })) } : {}),
      // frame_images win over input_references when both are sent (OpenRouter's rule)
      ...(referenced(body)
        ? {
            inputReferences: body.input_references!.map((r) => ({
              url: "image_url" in r ? r.image_url.url : "audio_url" in r ? r.audio_url.url : r.video_url.url,
            })),
          }
        : {}),
    },
    passthrough,
    candidates,
  };
}

/** Blocks of providers serving this model must name only allow-listed parameters; other providers' blocks are never forwarded. */
function checkPassthrough(body: VideoGenerationRequestBody, model: VideoCatalogModel, usable: readonly VideoEndpoint[]): StoredVideoRequest["passthrough"] {
  const options = body.provider?.options ?? {};
  const kept: Record<string, Record<string, unknown>> = {};
  for (const [slug, block] of Object.entries(options)) {
    const serving = usable.filter((e) => e.provider.slug === slug);
    if (serving.length === 0) continue;
    const allowed = union(serving, (c) => c.passthrough);
    const nested = typeof block.parameters === "object" && block.parameters !== null;
    for (const name of Object.keys(flatPassthrough(block)))
      if (!allowed.includes(name)) {
        const field = nested && name in (block.parameters as object) ? `provider.options.${slug}.parameters.${name}` : `provider.options.${slug}.${name}`;
        throw badRequest(`${field} is not a passthrough parameter of ${model.id} on ${slug}; allowed: ${allowed.join(", ") || "none"}`, { field, allowed });
      }
    kept[slug] = block;
  }
  return kept;
}
