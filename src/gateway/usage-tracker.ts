import { emptyUsage, type IRStreamPart, type IRUsage } from "../ir/types";

/** Collects usage from stream parts; later values win field by field. */
export class UsageTracker {
  usage: IRUsage = emptyUsage();
  /** output seen so far, for counting tokens when the upstream reports no usage */
  private output: string[] = [];

  get outputText(): string {
    return this.output.join("");
  }

  merge(partial: Partial<IRUsage> | undefined): void {
    if (!partial) return;
    for (const [k, v] of Object.entries(partial)) {
      if (typeof v === "number" && (v > 0 || !(k in this.usage))) {
        (this.usage as Record<string, unknown>)[k] = v;
      }
    }
  }

  observe(part: IRStreamPart): void {
    switch (part.type) {
      case "start":
      case "usage":
      case "finish":
        this.merge(part.usage);
        break;
      case "text-delta":
      case "reasoning-delta":
      case "refusal-delta":
        this.output.push(part.text);
        break;
      case "tool-args-delta":
        this.output.push(part.delta);
        break;
    }
  }
}
