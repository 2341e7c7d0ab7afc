import type { AppContext } from "../app-context";
import { GatewayError } from "../errors";
import { inputItems, isInputItem, isItemReference } from "../formats/openai-responses/state";

/**
 * Responses state: a Responses request may refer to the output items of earlier answers of its
 * workspace (`{type: "item_reference", id}`) and continue an earlier response
 * (`previous_response_id`: that response's input and output items go first, as OpenAI does).
 * Both are resolved here, before decoding, into the items themselves; the answer is then kept
 * for `responses.item_retention_minutes` (response-memory.ts) unless the request says
 * `store: false`. A stored response holds its whole resolved input, so continuing it needs
 * only it, however long the conversation.
 */

/** What to keep of a Responses answer: the input it answered, references resolved. */
export type ResponseMemory = Readonly<{
  workspaceId: string;
  input: readonly unknown[];
  /** stored items the request referred to: kept as long as the new answer */
  referencedItemIds: readonly string[];
}>;

type Body = Record<string, unknown>;

const REMEDY_ITEM = "send the item itself with store: false";
const REMEDY_RESPONSE = "send the earlier items themselves in input with store: false";

function notKept(field: string, what: string, id: string, retentionMinutes: number, remedy: string): GatewayError {
  const why =
    retentionMinutes === 0
      ? `this gateway keeps no ${what}s (responses.item_retention_minutes is 0)`
      : `no stored ${what} '${id}' in this workspace (unknown, or older than the ${retentionMinutes}-minute retention)`;
  return new GatewayError(400, `Invalid field '${field}': ${why}; ${remedy}`, { field });
}

async function previousItems(deps: Pick<AppContext, "store" | "config">, workspaceId: string, responseId: string, now: number): Promise<unknown[]> {
  const minutes = deps.config.responses.itemRetentionMinutes;
  const conversation = minutes === 0 ? undefined : await deps.store.responses.conversation(workspaceId, responseId, now);
  if (!conversation) throw notKept("previous_response_id", "response", responseId, minutes, REMEDY_RESPONSE);
  return [...conversation.input, ...conversation.output];
}

async function resolveReferences(
  deps: Pick<AppContext, "store" | "config">,
  workspaceId: string,
  items: unknown[],
  ids: string[],
  now: number,
): Promise<unknown[]> {
  if (ids.length === 0) return items;
  const minutes = deps.config.responses.itemRetentionMinutes;
  const stored = minutes === 0 ? new Map<string, unknown>() : await deps.store.responses.items(workspaceId, ids, now);
  return items.map((item, index) => {
    if (!isItemReference(item)) return item;
    const found = stored.get(item.id);
    if (found === undefined) throw notKept(`input[${index}].id`, "item", item.id, minutes, REMEDY_ITEM);
    // a stored item of a kind this gateway cannot read back (a passthrough answer's, say) is no input
    if (!isInputItem(found))
      throw new GatewayError(400, `Invalid field 'input[${index}].id': the stored item '${item.id}' cannot be sent back as input; ${REMEDY_ITEM}`, {
        field: `input[${index}].id`,
      });
    return found;
  });
}

/**
 * The Responses body as the gateway serves it: `input` with references replaced and the
 * previous response's items first, `store: false` when nothing will be kept; and what to keep.
 */
export async function resolveResponsesState(
  deps: Pick<AppContext, "store" | "config">,
  workspaceId: string,
  body: Body,
  now: number,
): Promise<{ body: Body; memory: ResponseMemory | null }> {
  const previousId = typeof body.previous_response_id === "string" ? body.previous_response_id : undefined;
  const own = inputItems(body.input);
  const referencedItemIds = [...new Set(own.filter(isItemReference).map((item) => item.id))];
  const resolved = await resolveReferences(deps, workspaceId, own, referencedItemIds, now);
  const input = previousId === undefined ? resolved : [...(await previousItems(deps, workspaceId, previousId, now)), ...resolved];
  const keep = body.store !== false && deps.config.responses.itemRetentionMinutes > 0;
  const served: Body = { ...body, ...(input === own ? {} : { input }), ...(keep ? {} : { store: false }) };
  if (!keep) return { body: served, memory: null };
  return { body: served, memory: { workspaceId, input, referencedItemIds } };
}
