import type { IRStreamBlock, IRStreamPart } from "../../ir/types";

/**
 * Chat deltas have no block boundaries; the IR does. This keeps the one open block
 * and numbers blocks in order of opening, closing the previous one whenever a
 * different block begins.
 */

export type OpenBlock =
  | { kind: "text" | "refusal"; index: number }
  | {
      kind: "reasoning";
      index: number;
      block: Extract<IRStreamBlock, { type: "reasoning" }>;
      detailIndex?: number;
      hasEncrypted: boolean;
    }
  | { kind: "tool_call"; index: number; key: number | string; id: string };

type NewBlock = OpenBlock extends infer B ? (B extends OpenBlock ? Omit<B, "index"> : never) : never;

export class BlockTracker {
  open: OpenBlock | undefined;
  private next = 0;

  close(out: IRStreamPart[]): void {
    if (!this.open) return;
    out.push({ type: "block-end", index: this.open.index });
    this.open = undefined;
  }

  /** Closes the open block and opens `block`; returns it with its IR index. */
  start<B extends NewBlock>(out: IRStreamPart[], block: B, wire: IRStreamBlock): B & { index: number } {
    this.close(out);
    const opened = { ...block, index: this.next++ } as B & { index: number };
    this.open = opened as OpenBlock;
    out.push({ type: "block-start", index: opened.index, block: wire });
    return opened;
  }

  /** The open text or refusal block, opening one when something else is open. */
  plain(out: IRStreamPart[], kind: "text" | "refusal"): number {
    if (this.open?.kind === kind) return this.open.index;
    return this.start(out, { kind }, { type: kind }).index;
  }
}
