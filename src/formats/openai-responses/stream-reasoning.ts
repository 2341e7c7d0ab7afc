import { type OutputReasoning, type ReasoningData, type ReasoningShape, reasoningItem, reasoningItemId } from "./output-items";

type Emit = (type: string, payload: Record<string, unknown>) => string;

/**
 * One reasoning output item as SSE, in the request's shape: summary part 0
 * (reasoning_summary_part / reasoning_summary_text events), or content part 0
 * (content_part / reasoning_text events). The part opens on the first non-empty delta, so
 * reasoning that is only an encrypted payload ends with `summary: []` as OpenAI sends it.
 */
export class ReasoningItemStream {
  readonly id: string;
  private readonly summary: boolean;
  private partOpen = false;

  constructor(
    private readonly data: ReasoningData,
    generationId: string,
    private readonly outputIndex: number,
    private readonly shape: ReasoningShape,
    private readonly emit: Emit,
  ) {
    this.id = reasoningItemId(data, generationId, outputIndex);
    this.summary = shape === "summary_text";
  }

  private route(): Record<string, unknown> {
    return this.summary
      ? { item_id: this.id, output_index: this.outputIndex, summary_index: 0 }
      : { item_id: this.id, output_index: this.outputIndex, content_index: 0 };
  }

  private partBody(text: string): Record<string, unknown> {
    return { type: this.shape, text };
  }

  added(): string {
    const item = { type: "reasoning", id: this.id, summary: [] };
    return this.emit("response.output_item.added", { output_index: this.outputIndex, item });
  }

  delta(text: string): string {
    if (text === "") return "";
    let sse = "";
    if (!this.partOpen) {
      this.partOpen = true;
      const added = this.summary ? "response.reasoning_summary_part.added" : "response.content_part.added";
      sse += this.emit(added, { ...this.route(), part: this.partBody("") });
    }
    this.data.text += text;
    const type = this.summary ? "response.reasoning_summary_text.delta" : "response.reasoning_text.delta";
    return sse + this.emit(type, { ...this.route(), delta: text });
  }

  addSignature(signature: string): void {
    this.data.signature = (this.data.signature ?? "") + signature;
  }

  setEncrypted(data: string): void {
    this.data.encrypted = data;
  }

  snapshot(): OutputReasoning {
    return reasoningItem(this.id, this.data, this.shape);
  }

  done(): { sse: string; item: OutputReasoning } {
    let sse = "";
    if (this.partOpen) {
      const text = this.data.text;
      const textDone = this.summary ? "response.reasoning_summary_text.done" : "response.reasoning_text.done";
      const partDone = this.summary ? "response.reasoning_summary_part.done" : "response.content_part.done";
      sse += this.emit(textDone, { ...this.route(), text });
      sse += this.emit(partDone, { ...this.route(), part: this.partBody(text) });
    }
    const item = this.snapshot();
    return { sse: sse + this.emit("response.output_item.done", { output_index: this.outputIndex, item }), item };
  }
}
