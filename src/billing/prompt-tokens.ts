import type { IRRequest, IRTool } from "../ir/types";
import { mediaTokens, promptText } from "./estimate";
import { countTokens } from "./tokenizer";

/** A tool definition as the model is shown it: name, description and the schema of its arguments. */
const toolText = (tool: IRTool): string => JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters });

/**
 * The prompt's tokens as the gateway counts them: system and messages and tool definitions by the
 * tokenizer, images and files at the estimate's flat rates. The one figure for
 * POST /messages/count_tokens, the input tokens a stream announces before the upstream's own
 * count arrives, and the prompt side of a usage the upstream did not report.
 */
export async function countPromptTokens(ir: Pick<IRRequest, "messages" | "tools">): Promise<number> {
  const text = [promptText(ir), ...(ir.tools ?? []).map(toolText)].join("\n");
  return (await countTokens(text)) + mediaTokens(ir);
}
