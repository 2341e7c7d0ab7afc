import { t } from "elysia";

/** Output items of a Responses result (contract OutputItems): the kinds the IR's assistant parts become. */

const ItemStatus = t.UnionEnum(["in_progress", "completed", "incomplete"]);

export const OutputTextSchema = t.Object({ type: t.Literal("output_text"), text: t.String(), annotations: t.Array(t.Unknown()) });
export const RefusalContentSchema = t.Object({ type: t.Literal("refusal"), refusal: t.String() });

const OutputMessage = t.Object({
  type: t.Literal("message"),
  id: t.String(),
  role: t.Literal("assistant"),
  status: ItemStatus,
  content: t.Array(t.Union([OutputTextSchema, RefusalContentSchema])),
});

const OutputFunctionCall = t.Object({
  type: t.Literal("function_call"),
  id: t.String(),
  call_id: t.String(),
  name: t.String(),
  arguments: t.String(),
  status: ItemStatus,
});

const OutputReasoning = t.Object({
  type: t.Literal("reasoning"),
  id: t.String(),
  summary: t.Array(t.Object({ type: t.Literal("summary_text"), text: t.String() })),
  content: t.Optional(t.Array(t.Object({ type: t.Literal("reasoning_text"), text: t.String() }))),
  encrypted_content: t.Optional(t.String()),
});

export const OutputItemSchema = t.Union([OutputMessage, OutputFunctionCall, OutputReasoning]);
export { OutputFunctionCall as OutputFunctionCallSchema, OutputMessage as OutputMessageSchema, OutputReasoning as OutputReasoningSchema };
