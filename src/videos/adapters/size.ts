/**
 * APIs that take aspect ratio + resolution (Veo, fal) instead of "WxH": 1280x720 → 16:9 + 720p
 * (the shorter side names the tier, as 720p/1080p do; 3840x2160 is 4k).
 */
export function aspectAndResolutionOfSize(size: string): { aspectRatio: string; resolution: string } | undefined {
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width <= 0 || height <= 0) return undefined;
  const divisor = gcd(width, height);
  const shorter = Math.min(width, height);
  return { aspectRatio: `${width / divisor}:${height / divisor}`, resolution: shorter >= 2160 ? "4k" : `${shorter}p` };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
