import { emptyUsage, type IRStreamPart, type IRUsage } from "../ir/types";

/** What the metering step read off a stream as it went by. */
export type MeterReading = {
  usage: IRUsage;
  /** output seen, for counting tokens when the upstream reported none */
  outputText: string;
  firstTokenAt: number | null;
  upstreamId: string | null;
};

/** Reads usage, output and timing off stream parts on their way to the encoder; changes none of them. */
export class StreamMeter {
  private usage: IRUsage = emptyUsage();
  private output: string[] = [];
  private firstTokenAt: number | null = null;
  private upstreamId: string | null = null;

  constructor(private readonly clock: () => number) {}

  observe(part: IRStreamPart): void {
    switch (part.type) {
      case "start":
        this.upstreamId = part.id;
        this.merge(part.usage);
        return;
      case "usage":
      case "finish":
        this.merge(part.usage);
        return;
      case "text-delta":
      case "reasoning-delta":
      case "refusal-delta":
        this.firstToken();
        this.output.push(part.text);
        return;
      case "tool-args-delta":
        this.firstToken();
        this.output.push(part.delta);
        return;
      case "block-start":
        this.firstToken();
        return;
    }
  }

  reading(): MeterReading {
    return { usage: { ...this.usage }, outputText: this.output.join(""), firstTokenAt: this.firstTokenAt, upstreamId: this.upstreamId };
  }

  private firstToken(): void {
    this.firstTokenAt ??= this.clock();
  }

  /** later values win field by field; a reported 0 does not erase an earlier count */
  private merge(partial: Partial<IRUsage> | undefined): void {
    if (!partial) return;
    const usage = this.usage as Record<string, number | undefined>;
    for (const key in partial) {
      const v = (partial as Record<string, unknown>)[key];
      if (typeof v === "number" && (v > 0 || !(key in usage))) usage[key] = v;
    }
  }
}
