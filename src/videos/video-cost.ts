import type { VideoPrices } from "./video-catalog";

/** Nano-dollars for one video of `seconds` seconds: the per-video price plus every second at the audio or silent rate. */
export function videoCostNanos(prices: VideoPrices, seconds: number, withAudio: boolean): number {
  return Math.ceil(prices.perVideo + seconds * (withAudio ? prices.perSecondAudio : prices.perSecond));
}
