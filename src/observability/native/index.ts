import type { DestinationSender } from "../contract";
import { braintrustSender } from "./braintrust";
import { clickhouseSender } from "./clickhouse";
import { datadogSender } from "./datadog";
import { opikSender } from "./opik";
import { posthogSender } from "./posthog";
import { s3Sender } from "./s3";
import { snowflakeSender } from "./snowflake";
import { weaveSender } from "./weave";

/** The eight destination types with a wire format of their own; the other nine speak OTLP (OpenRouter's Broadcast overview). */
export const nativeSenders: readonly DestinationSender[] = [
  braintrustSender,
  clickhouseSender,
  datadogSender,
  opikSender,
  posthogSender,
  s3Sender,
  snowflakeSender,
  weaveSender,
];
