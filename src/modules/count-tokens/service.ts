import type { Static } from "elysia";
import type { AppContext } from "../../app-context";
import { countPromptTokens } from "../../billing/prompt-tokens";
import type { MessagesRequestBody } from "../../formats/anthropic-messages";
import { requestedModels } from "../../gateway/candidates";
import { requestedModel } from "../../gateway/plan";
import { decodeWithPreset } from "../../gateway/preset-merge";
import type { Principal } from "../../http/principal";
import type { MessageTokensCountSchema } from "./model";

/**
 * The token count of a Messages request without sending it anywhere: decoded (with its preset) as
 * /messages decodes it, for a model /messages would serve, counted by the gateway's tokenizer.
 */
export async function countMessageTokens(
  ctx: AppContext,
  principal: Principal,
  body: MessagesRequestBody,
  headers: Headers,
): Promise<Static<typeof MessageTokensCountSchema>> {
  const { ir } = await decodeWithPreset(ctx, principal, "anthropic-messages", body, headers);
  // an unknown model is the 404 /messages gives
  requestedModels(ctx.catalog, requestedModel(ir, principal), ir.models);
  return { input_tokens: await countPromptTokens(ir) };
}
