import { t } from "elysia";
import { badRequest } from "../../errors";

/**
 * `alert_thresholds` of a key's limit and of a workspace budget: fractions of the limit (0.8 is
 * 80 %) whose crossing sends one `budget.threshold_reached` webhook per window (billing/budget-alerts.ts).
 * null or [] clears them.
 */
export const AlertThresholdsField = t.Optional(
  t.Nullable(
    t.Array(t.Number({ exclusiveMinimum: 0, maximum: 1 }), {
      maxItems: 10,
      description: "fractions of the limit (0 < f <= 1, e.g. [0.5, 0.8, 1]) whose crossing sends a budget.threshold_reached webhook, once per window",
    }),
  ),
);

/** As stored: ascending, each once; null for none. A threshold named twice is a 400. */
export function storedThresholds(thresholds: readonly number[] | null | undefined, field = "alert_thresholds"): number[] | null | undefined {
  if (thresholds === undefined) return undefined;
  if (thresholds === null || thresholds.length === 0) return null;
  const sorted = [...thresholds].sort((a, b) => a - b);
  if (sorted.some((v, i) => i > 0 && v === sorted[i - 1])) throw badRequest(`Invalid field '${field}': a threshold is named twice`, { field });
  return sorted;
}
