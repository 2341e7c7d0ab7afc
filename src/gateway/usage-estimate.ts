import { countPromptTokens } from "../billing/prompt-tokens";
import { countTokens } from "../billing/tokenizer";
import type { IRRequest, IRUsage } from "../ir/types";

/**
 * The usage to charge: what the upstream reported, with what it did not report (no usage at
 * all, or a stream cut before its output count) counted from the prompt and the output seen.
 */
export async function completeUsage(
  reported: IRUsage,
  ir: Pick<IRRequest, "messages" | "tools">,
  outputText: string,
): Promise<{ usage: IRUsage; estimated: boolean }> {
  const countInput = reported.inputTokens === 0;
  const countOutput = reported.outputTokens === 0 && outputText !== "";
  if (!countInput && !countOutput) return { usage: reported, estimated: false };
  return {
    usage: {
      ...reported,
      inputTokens: countInput ? await countPromptTokens(ir) : reported.inputTokens,
      outputTokens: countOutput ? await countTokens(outputText) : reported.outputTokens,
    },
    estimated: true,
  };
}
