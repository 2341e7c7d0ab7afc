import { t } from "elysia";

export const CreditsResponse = t.Object({ data: t.Object({ total_credits: t.Number(), total_usage: t.Number() }) });

export type CreditsOut = typeof CreditsResponse.static;
