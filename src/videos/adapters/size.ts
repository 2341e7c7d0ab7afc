/**
 * Sizes ("WxH") against aspect ratios and resolutions. A size has a ratio when width:height
 * reduces to it (1280x720 is 16:9, 720x720 is 1:1) and a resolution when its shorter side is the
 * one the resolution names (720p: 720, as the "p" tiers count lines of the shorter side).
 */

type Dimensions = { width: number; height: number };

function dimensionsOf(size: string): Dimensions | undefined {
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

const ratioOf = ({ width, height }: Dimensions): string => {
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
};

/**
 * APIs that take aspect ratio + resolution (Veo, fal) instead of "WxH": 1280x720 → 16:9 + 720p
 * (the shorter side names the tier, as 720p/1080p do; 3840x2160 is 4k).
 */
export function aspectAndResolutionOfSize(size: string): { aspectRatio: string; resolution: string } | undefined {
  const dimensions = dimensionsOf(size);
  if (!dimensions) return undefined;
  const shorter = Math.min(dimensions.width, dimensions.height);
  return { aspectRatio: ratioOf(dimensions), resolution: shorter >= 2160 ? "4k" : `${shorter}p` };
}

/**
 * The shorter side a resolution names: "720p" → 720, "4K" → 2160. "1K" and "2K" name none:
 * vendors disagree on them (2K is 1440 lines to some, 2048 columns to others).
 */
export function shorterSideOf(resolution: string): number | undefined {
  if (/^4k$/i.test(resolution)) return 2160;
  const match = /^(\d+)p$/i.exec(resolution);
  return match ? Number(match[1]) : undefined;
}

export type ShapeAsked = { aspectRatio?: string; resolution?: string };

/** Does `size` have the ratio and resolution asked (each only when asked)? */
export function sizeFits(size: string, asked: ShapeAsked): boolean {
  const dimensions = dimensionsOf(size);
  if (!dimensions) return false;
  if (asked.aspectRatio !== undefined && ratioOf(dimensions) !== asked.aspectRatio) return false;
  return asked.resolution === undefined || Math.min(dimensions.width, dimensions.height) === shorterSideOf(asked.resolution);
}

/** The sizes OpenAI's Videos API takes, for an endpoint of the OpenAI shape whose configuration lists none. */
export const OPENAI_SIZES: readonly string[] = ["1280x720", "720x1280", "1920x1080", "1080x1920", "1792x1024", "1024x1792"];

/** The sizes an API that takes only a size turns aspect ratio and resolution into: the endpoint's own, else OpenAI's. */
export const sizesToDeriveFrom = (listed: readonly string[]): readonly string[] => (listed.length > 0 ? listed : OPENAI_SIZES);

/**
 * The size, among `sizes`, that makes the aspect ratio and resolution asked; undefined when
 * nothing is asked (the upstream's default stands) or no size fits. When both are asked at most
 * one size fits. When one is missing the pick is deterministic: the size at 720p and 16:9 for
 * the missing one (the tier and orientation this gateway always defaulted to, OpenAI's cheapest
 * landscape), else the first that fits in the order `sizes` lists them (the configuration's).
 */
export function deriveSize(sizes: readonly string[], asked: ShapeAsked): string | undefined {
  if (asked.aspectRatio === undefined && asked.resolution === undefined) return undefined;
  const fitting = sizes.filter((size) => sizeFits(size, asked));
  const preferred = { aspectRatio: asked.aspectRatio ?? "16:9", resolution: asked.resolution ?? "720p" };
  return fitting.find((size) => sizeFits(size, preferred)) ?? fitting[0];
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
