import type { AppContext } from "../app-context";
import type { Principal } from "../http/principal";
import type { InboundFormat } from "./codecs";

export type PresetApplied = { body: unknown; presetId: string | null };

/** Applies the preset a request references (`@preset/<slug>`, `<model>@preset/<slug>`, `preset`) to its body. */
export function applyPreset(_ctx: AppContext, _principal: Principal, _format: InboundFormat, body: unknown): PresetApplied {
  return { body, presetId: null };
}
