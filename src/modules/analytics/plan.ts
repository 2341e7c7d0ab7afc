import { badRequest } from "../../errors";
import { keyNumber } from "../../observability/capture/io-logging";
import type { AnalyticsFilter, AnalyticsFilterOp, Store } from "../../store/store";
import { parseUtcDateTime } from "../../time";
import {
  DEFAULT_LIMIT,
  DEFAULT_RANGE_DAYS,
  DIMENSION_BY_NAME,
  type DimensionDefinition,
  GRANULARITIES,
  type Granularity,
  MAX_HOURLY_RANGE_DAYS,
  MAX_RANGE_DAYS,
  OPERATORS,
} from "./dimensions";
import { METRIC_BY_NAME, type MetricDefinition } from "./metrics";
import type { AnalyticsQueryInput } from "./model";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** a key's number (keyNumber: what `io_logging_api_key_ids` names keys by); anything else is taken as a hash */
const KEY_NUMBER = /^\d{1,16}$/;

/** A query checked and resolved: what to read from the counters and how to shape the rows. */
export type AnalyticsPlan = {
  metrics: MetricDefinition[];
  dimensions: DimensionDefinition[];
  granularity: Granularity | null;
  fromHour: number;
  toHour: number;
  filters: AnalyticsFilter[];
  order: { kind: "metric" | "dimension" | "date"; name: string; direction: "asc" | "desc" };
  limit: number;
  groupLimit: number | null;
  warnings: string[];
};

/** `workspaceIds`: the only workspaces the caller may read (a console member's); undefined: all */
export type AnalyticsScope = { workspaceIds?: readonly string[] };

type PlanDeps = { store: Store; clock: () => number };

function timeRange(body: AnalyticsQueryInput, now: number): { fromHour: number; toHour: number } {
  const parse = (value: string, field: string) => {
    const ms = parseUtcDateTime(value);
    if (ms === undefined) throw badRequest(`Invalid field '${field}': expected a UTC ISO 8601 date-time with seconds, e.g. 2030-01-01T00:00:00Z`, { field });
    return ms;
  };
  const start = body.time_range ? parse(body.time_range.start, "time_range.start") : now - DEFAULT_RANGE_DAYS * DAY_MS;
  const end = body.time_range ? parse(body.time_range.end, "time_range.end") : now;
  if (start >= end) throw badRequest("Invalid field 'time_range.start': must be before time_range.end", { field: "time_range.start" });
  const days = body.granularity === "hour" ? MAX_HOURLY_RANGE_DAYS : MAX_RANGE_DAYS;
  if (end - start > days * DAY_MS)
    throw badRequest(`Invalid field 'time_range': at most ${days} days${body.granularity === "hour" ? " with granularity hour" : ""}`, { field: "time_range" });
  // the counters are hourly: the range widens to the hours it touches
  return { fromHour: start - (start % HOUR_MS), toHour: end % HOUR_MS === 0 ? end : end - (end % HOUR_MS) + HOUR_MS };
}

/** A filter's values as the counters hold them: key hashes and workspace ids (numbers and slugs resolved), "" for the unset bucket. */
async function resolvedValues(deps: PlanDeps, dimension: DimensionDefinition, values: Array<string | number>, warnings: string[]): Promise<string[]> {
  if (dimension.name === "api_key_id") {
    const numbers = values.filter((v) => KEY_NUMBER.test(String(v)));
    const byNumber = numbers.length === 0 ? new Map<number, string>() : await keyNumbers(deps.store);
    return values.map((v) => {
      if (!KEY_NUMBER.test(String(v))) return String(v);
      const hash = byNumber.get(Number(v));
      if (hash === undefined) warnings.push(`api_key_id '${v}' matches no key: the filter value matches nothing`);
      return hash ?? `unresolved:${v}`;
    });
  }
  if (dimension.name === "workspace") {
    return Promise.all(
      values.map(async (v) => {
        const ws = await deps.store.workspaces.find(String(v));
        if (!ws) warnings.push(`workspace '${v}' matches no workspace: the filter value matches nothing`);
        return ws?.id ?? String(v);
      }),
    );
  }
  return values.map(String);
}

async function keyNumbers(store: Store): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const ws of await store.workspaces.list(0, 1000))
    for (const key of await store.keys.list({ workspaceId: ws.id, includeDisabled: true, offset: 0, limit: 100_000 })) out.set(keyNumber(key.hash), key.hash);
  return out;
}

async function plannedFilters(deps: PlanDeps, body: AnalyticsQueryInput, warnings: string[]): Promise<AnalyticsFilter[]> {
  const out: AnalyticsFilter[] = [];
  for (const [i, f] of (body.filters ?? []).entries()) {
    const dimension = DIMENSION_BY_NAME.get(f.field);
    if (!dimension)
      throw badRequest(`Invalid field 'filters[${i}].field': '${f.field}' is not a dimension (GET /api/v1/analytics/meta)`, { field: `filters[${i}].field` });
    const operator = OPERATORS.find((o) => o.name === f.operator);
    if (!operator)
      throw badRequest(`Invalid field 'filters[${i}].operator': '${f.operator}' is not one of ${OPERATORS.map((o) => o.name).join(", ")}`, {
        field: `filters[${i}].operator`,
      });
    if ((operator.value_type === "array") !== Array.isArray(f.value))
      throw badRequest(`Invalid field 'filters[${i}].value': ${f.operator} takes ${operator.value_type === "array" ? "an array" : "a single value"}`, {
        field: `filters[${i}].value`,
      });
    if (f.include_unset !== undefined && (operator.value_type !== "array" || !dimension.hasUnset))
      throw badRequest(
        `Invalid field 'filters[${i}].include_unset': ${operator.value_type !== "array" ? "only in and not_in take it" : `Dimension "${f.field}" has no unset bucket`}`,
        { field: `filters[${i}].include_unset` },
      );
    const values = await resolvedValues(deps, dimension, Array.isArray(f.value) ? f.value : [f.value], warnings);
    const op = operator.name as AnalyticsFilterOp;
    // rows without a value ("") match neither `in` nor `not_in` unless include_unset says so, as a SQL NULL would not
    const addUnset = dimension.hasUnset && ((op === "in" && f.include_unset === true) || (op === "not_in" && f.include_unset !== true));
    out.push({ column: dimension.column, op, values: addUnset ? [...values, ""] : values });
  }
  return out;
}

export async function planQuery(deps: PlanDeps, body: AnalyticsQueryInput, scope: AnalyticsScope): Promise<AnalyticsPlan> {
  for (const field of ["classifier_dimensions", "classifier_filters"] as const)
    if (body[field] !== undefined) throw badRequest(`Invalid field '${field}': classifiers are not supported by this gateway`, { field });
  const metrics = body.metrics.map((name, i) => {
    const m = METRIC_BY_NAME.get(name);
    if (!m) throw badRequest(`Invalid field 'metrics[${i}]': '${name}' is not a metric (GET /api/v1/analytics/meta)`, { field: `metrics[${i}]` });
    return m;
  });
  const dimensions = (body.dimensions ?? []).map((name, i) => {
    const d = DIMENSION_BY_NAME.get(name);
    if (!d) throw badRequest(`Invalid field 'dimensions[${i}]': '${name}' is not a dimension (GET /api/v1/analytics/meta)`, { field: `dimensions[${i}]` });
    return d;
  });
  if (new Set(dimensions.map((d) => d.name)).size !== dimensions.length)
    throw badRequest("Invalid field 'dimensions': a dimension is named twice", { field: "dimensions" });
  const granularity = body.granularity === undefined ? null : (GRANULARITIES.find((g) => g.name === body.granularity)?.name ?? null);
  if (body.granularity !== undefined && granularity === null)
    throw badRequest(`Invalid field 'granularity': '${body.granularity}' is not one of ${GRANULARITIES.map((g) => g.name).join(", ")}`, {
      field: "granularity",
    });
  const { fromHour, toHour } = timeRange(body, deps.clock());
  const warnings: string[] = [];
  const filters = await plannedFilters(deps, body, warnings);
  if (scope.workspaceIds !== undefined) filters.push({ column: "workspace_id", op: "in", values: scope.workspaceIds });
  return {
    metrics,
    dimensions,
    granularity,
    fromHour,
    toHour,
    filters,
    order: plannedOrder(body, metrics, dimensions, granularity),
    limit: body.limit ?? DEFAULT_LIMIT,
    groupLimit: dimensions.length > 0 ? (body.group_limit ?? null) : null,
    warnings,
  };
}

function plannedOrder(
  body: AnalyticsQueryInput,
  metrics: MetricDefinition[],
  dimensions: DimensionDefinition[],
  granularity: Granularity | null,
): AnalyticsPlan["order"] {
  const asked = body.order_by;
  if (!asked) return granularity !== null ? { kind: "date", name: "date", direction: "desc" } : { kind: "metric", name: metrics[0]!.name, direction: "desc" };
  const direction = asked.direction;
  if (asked.field === "date" || asked.field === `date__${granularity}`) {
    if (granularity === null) throw badRequest("Invalid field 'order_by.field': date needs a granularity", { field: "order_by.field" });
    return { kind: "date", name: "date", direction };
  }
  if (asked.field === "request_count" || metrics.some((m) => m.name === asked.field)) return { kind: "metric", name: asked.field, direction };
  if (dimensions.some((d) => d.name === asked.field)) return { kind: "dimension", name: asked.field, direction };
  throw badRequest(`Invalid field 'order_by.field': '${asked.field}' is neither a requested metric, request_count, a requested dimension nor date`, {
    field: "order_by.field",
  });
}
