/** What capture reads of a request and its answer, before anything decides where it goes. */

/** The request's messages in the inbound format's JSON, the tools it offered, its other parameters. */
export type CapturedInput = Readonly<{ messages: unknown; tools: unknown | null; parameters: Readonly<Record<string, unknown>> }>;

export type CapturedToolCall = Readonly<{ id: string; name: string; arguments: string }>;

/** The answer: its text, its reasoning text, the tool calls it made (arguments as JSON text). */
export type CapturedOutput = Readonly<{ text: string; reasoning: string; toolCalls: readonly CapturedToolCall[] }>;

/** The operations the contract names (ObservedGeneration.operation), and the media ones by their api_type. */
export type ObservedOperation = "chat" | "responses" | "messages" | "embeddings" | "video" | "image" | "tts" | "stt" | "rerank";
