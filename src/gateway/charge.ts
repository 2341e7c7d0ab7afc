import { type CostBreakdown, computeCost } from "../billing/cost";
import { nanosToUsd } from "../billing/money";
import type { PriceTable } from "../catalog/types";
import type { Settlement } from "../ir/settlement";
import type { IRUsage } from "../ir/types";

export const ZERO_COST: CostBreakdown = { total: 0, prompt: 0, completion: 0, other: 0 };

/** The money of one generation: integer nanos for the books, its USD settlement for the client. */
export type Charge = { cost: CostBreakdown; settlement: Settlement };

export function charge(pricing: PriceTable, isByok: boolean, usage: IRUsage, images: number, serviceMetadata?: Record<string, unknown>): Charge {
  const cost = computeCost(pricing, usage, { images });
  const settlement: Settlement = {
    cost: nanosToUsd(cost.total),
    isByok,
    costDetails: {
      upstreamInferencePromptCost: nanosToUsd(cost.prompt),
      upstreamInferenceCompletionsCost: nanosToUsd(cost.completion),
      upstreamInferenceCost: isByok ? nanosToUsd(cost.total) : null,
    },
  };
  return { cost, settlement: serviceMetadata ? { ...settlement, serviceMetadata } : settlement };
}
