/**
 * Reads a Chat Completions stream as the Playground shows it: the text as it comes, and at the
 * end the usage the gateway charged (`usage.cost`) or the error event that ended it.
 */
export type ChatStreamState = { text: string; cost: number | null; promptTokens: number | null; completionTokens: number | null; error: string | null };

export async function readChatStream(body: ReadableStream<Uint8Array>, onChange: (state: ChatStreamState) => void): Promise<ChatStreamState> {
  const state: ChatStreamState = { text: "", cost: null, promptTokens: null, completionTokens: null, error: null };
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of event.split("\n")) if (line.startsWith("data: ")) apply(state, line.slice(6));
      end = buffer.indexOf("\n\n");
    }
    onChange({ ...state });
  }
  return state;
}

function apply(state: ChatStreamState, data: string): void {
  if (data === "[DONE]") return;
  const chunk = JSON.parse(data) as {
    choices?: Array<{ delta?: { content?: string | null } }>;
    usage?: { cost?: number; prompt_tokens?: number; completion_tokens?: number } | null;
    error?: { message?: string };
  };
  for (const c of chunk.choices ?? []) if (typeof c.delta?.content === "string") state.text += c.delta.content;
  if (chunk.usage) {
    state.cost = chunk.usage.cost ?? state.cost;
    state.promptTokens = chunk.usage.prompt_tokens ?? state.promptTokens;
    state.completionTokens = chunk.usage.completion_tokens ?? state.completionTokens;
  }
  if (chunk.error) state.error = chunk.error.message ?? "The stream ended with an error";
}
