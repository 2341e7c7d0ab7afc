import { t } from "elysia";

/** `input` of a Responses request (OpenRouter's InputsUnion, the item kinds the gateway can serve). */

const opt = t.Optional;
const optNull = <T extends Parameters<typeof t.Nullable>[0]>(schema: T) => t.Optional(t.Nullable(schema));

const ItemStatus = t.Union([t.Literal("in_progress"), t.Literal("completed"), t.Literal("incomplete")]);
const ImageDetail = t.Union([t.Literal("auto"), t.Literal("high"), t.Literal("low"), t.Literal("original")]);

export const InputTextPart = t.Object({
  type: t.Literal("input_text"),
  text: t.String(),
  prompt_cache_breakpoint: optNull(t.Object({ mode: t.Literal("explicit") })),
});

export const InputImagePart = t.Object({
  type: t.Literal("input_image"),
  // The contract marks detail required; OpenAI's own clients omit it, so "auto" is implied.
  detail: opt(ImageDetail),
  image_url: optNull(t.String()),
  file_id: optNull(t.String()),
});

export const InputFilePart = t.Object({
  type: t.Literal("input_file"),
  file_data: opt(t.String()),
  file_id: optNull(t.String()),
  file_url: opt(t.String()),
  filename: opt(t.String()),
});

const InputAudioPart = t.Object({
  type: t.Literal("input_audio"),
  input_audio: t.Object({ data: t.String(), format: t.String() }),
});

const InputVideoPart = t.Object({
  type: t.Literal("input_video"),
  video_url: t.String(),
  processing: opt(t.String()),
});

export const OutputTextPart = t.Object({
  type: t.Literal("output_text"),
  text: t.String(),
  annotations: opt(t.Array(t.Unknown())),
  logprobs: opt(t.Array(t.Unknown())),
});

export const RefusalPart = t.Object({ type: t.Literal("refusal"), refusal: t.String() });

// One part union for every role: assistant turns replayed by clients carry output_text /
// refusal, user turns input_*; decode-request decides what each role may hold.
const MessagePart = t.Union([InputTextPart, InputImagePart, InputFilePart, InputAudioPart, InputVideoPart, OutputTextPart, RefusalPart]);

export const MessageItem = t.Object({
  type: opt(t.Literal("message")),
  id: opt(t.String()),
  role: t.Union([t.Literal("user"), t.Literal("system"), t.Literal("developer"), t.Literal("assistant")]),
  content: t.Union([t.String(), t.Array(MessagePart), t.Null()]),
  status: opt(ItemStatus),
  phase: optNull(t.Union([t.Literal("commentary"), t.Literal("final_answer")])),
});

export const FunctionCallItem = t.Object({
  type: t.Literal("function_call"),
  id: opt(t.String()),
  call_id: t.String({ minLength: 1 }),
  name: t.String(),
  arguments: t.String(),
  namespace: opt(t.String()),
  async: opt(t.Boolean()),
  status: optNull(ItemStatus),
});

export const FunctionCallOutputItem = t.Object({
  type: t.Literal("function_call_output"),
  id: optNull(t.String()),
  call_id: t.String({ minLength: 1 }),
  output: t.Union([t.String(), t.Array(t.Union([InputTextPart, InputImagePart, InputFilePart]))]),
  status: optNull(ItemStatus),
});

export const ReasoningItem = t.Object({
  type: t.Literal("reasoning"),
  id: t.String(),
  summary: t.Union([t.Array(t.Object({ type: t.Literal("summary_text"), text: t.String() })), t.Null()]),
  content: optNull(t.Array(t.Object({ type: t.Literal("reasoning_text"), text: t.String() }))),
  encrypted_content: optNull(t.String()),
  status: opt(ItemStatus),
  format: optNull(t.String()),
  signature: optNull(t.String()),
});

/** An earlier output item by the id the gateway returned; resolved from the stored response items before decoding. */
export const ItemReference = t.Object({ type: t.Literal("item_reference"), id: t.String({ minLength: 1 }) });

export const InputItem = t.Union([MessageItem, FunctionCallItem, FunctionCallOutputItem, ReasoningItem, ItemReference]);

export const Input = t.Union([t.String(), t.Array(InputItem)]);
