import type { AppContext } from "../app-context";
import { nanosToUsd } from "../billing/money";
import type { GenerationCursor, GenerationFilter, GenerationRecord } from "../store/store";
import { isoTime } from "../time";

const PAGE = 1000;

const COLUMNS = [
  "created_at",
  "id",
  "model",
  "provider",
  "status",
  "key",
  "workspace",
  "tokens_prompt",
  "tokens_completion",
  "cost_usd",
  "latency_ms",
  "finish_reason",
];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const statusOf = (g: GenerationRecord) => (g.cancelled ? "cancelled" : g.finishReason === "error" ? "error" : "success");

/**
 * Every generation a filter selects, newest first, as CSV: read a keyset page at a time while the
 * client reads (a stream with backpressure), so an export of any size holds one page in memory.
 * Keys and workspaces are named (a deleted key by its hash).
 */
export function generationsCsv(ctx: Pick<AppContext, "store">, filter: GenerationFilter): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const keyNames = new Map<string, string>();
  const workspaceNames = new Map<string, string>();
  const name = async (cache: Map<string, string>, id: string, load: (id: string) => Promise<string | undefined>) => {
    if (!cache.has(id)) cache.set(id, (await load(id)) ?? id);
    return cache.get(id)!;
  };
  let before: GenerationCursor | null = null;
  let header = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (header) {
          header = false;
          controller.enqueue(encoder.encode(`${COLUMNS.join(",")}\r\n`));
          return;
        }
        const page = await ctx.store.generations.list(filter, before, PAGE);
        const lines: string[] = [];
        for (const g of page) {
          const key = await name(keyNames, g.keyHash, async (h) => (await ctx.store.keys.get(h))?.name);
          const workspace = await name(workspaceNames, g.workspaceId, async (id) => (await ctx.store.workspaces.find(id))?.name);
          const fields = [
            isoTime(g.createdAt),
            g.id,
            g.model,
            g.providerName,
            statusOf(g),
            key,
            workspace,
            g.tokensPrompt,
            g.tokensCompletion,
            nanosToUsd(g.costNanos),
            g.latencyMs,
            g.finishReason,
          ];
          lines.push(`${fields.map(csvField).join(",")}\r\n`);
        }
        if (lines.length > 0) controller.enqueue(encoder.encode(lines.join("")));
        const last = page.at(-1);
        if (page.length < PAGE || !last) controller.close();
        else before = { createdAt: last.createdAt, id: last.id };
      },
    },
    { highWaterMark: 1 },
  );
}
