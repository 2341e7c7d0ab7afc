import { badRequest } from "../errors";
import { deriveSize, sizeFits, sizesToDeriveFrom } from "./adapters/size";
import { API_CARRIES } from "./video-api";
import { capabilityUnion, type VideoCapabilities, type VideoEndpoint } from "./video-catalog";

/**
 * The picture's shape a request asks for (aspect_ratio, resolution, size) and whether an
 * endpoint can make it. Each upstream API names the shape its own way (API_CARRIES.shape); what
 * an endpoint cannot make is refused when the request arrives, never dropped on the way up.
 */
export type AskedShape = { aspectRatio?: string; resolution?: string; size?: string };

type Field = { name: "aspect_ratio" | "resolution" | "size"; key: keyof AskedShape; listed: (c: VideoCapabilities) => readonly string[] };
const ASPECT_RATIO: Field = { name: "aspect_ratio", key: "aspectRatio", listed: (c) => c.aspectRatios };
const RESOLUTION: Field = { name: "resolution", key: "resolution", listed: (c) => c.resolutions };
const SIZE: Field = { name: "size", key: "size", listed: (c) => c.sizes };

const takesOnlySize = (e: VideoEndpoint) => API_CARRIES[e.provider.api].shape === "size";

/**
 * The one size every size-only endpoint of `endpoints` is sent when the request names a ratio or
 * resolution but no size: derived from their sizes together, in endpoint order (deriveSize says
 * which one wins), so that whichever of them serves the job makes the same picture.
 */
export function derivedSizeFor(asked: AskedShape, endpoints: readonly VideoEndpoint[]): string | undefined {
  if (asked.size !== undefined) return undefined;
  return deriveSize([...new Set(endpoints.filter(takesOnlySize).flatMap((e) => sizesToDeriveFrom(e.capabilities.sizes)))], asked);
}

const has = (list: readonly string[], value: string | undefined) => value === undefined || list.includes(value);

/** Does the endpoint list what was asked, and can its API carry it (`derived`: derivedSizeFor over the endpoints in play)? */
export function takesShape(e: VideoEndpoint, asked: AskedShape, derived: string | undefined): boolean {
  const c = e.capabilities;
  if (!has(c.aspectRatios, asked.aspectRatio) || !has(c.resolutions, asked.resolution) || !has(c.sizes, asked.size)) return false;
  switch (API_CARRIES[e.provider.api].shape) {
    case "size":
      if (asked.size !== undefined || (asked.aspectRatio === undefined && asked.resolution === undefined)) return true;
      return derived !== undefined && sizesToDeriveFrom(c.sizes).includes(derived);
    case "aspect_ratio": {
      // a size goes up as its ratio and resolution: the endpoint must list both
      const size = asked.size;
      if (size === undefined) return true;
      return c.aspectRatios.some((aspectRatio) => sizeFits(size, { aspectRatio })) && c.resolutions.some((resolution) => sizeFits(size, { resolution }));
    }
    case "as_given":
      return true;
  }
}

const makes = (asked: AskedShape, usable: readonly VideoEndpoint[]) => {
  const derived = derivedSizeFor(asked, usable);
  return usable.some((e) => takesShape(e, asked, derived));
};

const allowedPart = (allowed: readonly string[]) => (allowed.length > 0 ? `; allowed values: ${allowed.join(", ")}` : "");

/** A size asked with a ratio or resolution it does not have: one of them would be ignored upstream, so it is a 400 naming the ratio or resolution. */
export function checkShapeAgrees(asked: AskedShape, usable: readonly VideoEndpoint[]): void {
  const size = asked.size;
  if (size === undefined) return;
  for (const field of [ASPECT_RATIO, RESOLUTION]) {
    const value = asked[field.key];
    if (value === undefined || sizeFits(size, { [field.key]: value })) continue;
    const allowed = capabilityUnion(usable, field.listed).filter((v) => sizeFits(size, { [field.key]: v }));
    throw badRequest(`${field.name} ${JSON.stringify(value)} does not match size ${size}${allowedPart(allowed)}`, { field: field.name, allowed });
  }
}

/**
 * Refuses a shape no usable endpoint can make, naming the field at fault (size, else
 * aspect_ratio, else resolution) and the values of it that would be made with the rest asked.
 */
export function checkShapeMade(asked: AskedShape, usable: readonly VideoEndpoint[], model: string): void {
  if (makes(asked, usable)) return;
  const field = asked.size !== undefined ? SIZE : asked.aspectRatio !== undefined ? ASPECT_RATIO : RESOLUTION;
  const allowed = capabilityUnion(usable, field.listed).filter((v) => makes({ ...asked, [field.key]: v }, usable));
  const at = field === ASPECT_RATIO && asked.resolution !== undefined ? ` at resolution ${asked.resolution}` : "";
  throw badRequest(`${field.name} ${JSON.stringify(asked[field.key])} is not supported by ${model}${at}${allowedPart(allowed)}`, {
    field: field.name,
    allowed,
  });
}
