import { DELIVERED, type HttpResult, type SendOutcome } from "./contract";

/** Items [start, end) of a batch send. */
type Range = { start: number; end: number };

/**
 * Sends items in the requests `batches` cuts them into (index ranges, in order) and answers each
 * item's outcome, in order. A request the destination refuses for what its content may cause
 * (`splits`: refusesContent for most types, isTooLarge within one PostHog generation's events)
 * is sent again as two halves, down to single items, as PostHog's own clients do with a 413: one item the destination cannot take
 * does not take the others with it. An answer that says the destination is busy or away (a
 * retry) or refuses everything (auth, an unknown path, a refused URL) ends the sending: the items
 * not yet sent take that outcome, since sending them would only be refused the same way.
 */
export async function sendSplitting<T>(
  items: readonly T[],
  batches: readonly Range[],
  post: (batch: readonly T[]) => Promise<HttpResult>,
  classify: (result: HttpResult) => SendOutcome,
  splits: (result: HttpResult) => boolean,
): Promise<SendOutcome[]> {
  const outcomes = new Array<SendOutcome>(items.length);
  const pending = [...batches];
  while (pending.length > 0) {
    const { start, end } = pending.shift()!;
    const result = await post(items.slice(start, end));
    if (end - start > 1 && splits(result)) {
      const half = start + Math.ceil((end - start) / 2);
      pending.unshift({ start, end: half }, { start: half, end });
      continue;
    }
    const outcome = classify(result);
    outcomes.fill(outcome, start, end);
    if (outcome.kind === "retry" || (outcome.kind === "failed" && refusesEverything(result, splits))) {
      for (const rest of pending) outcomes.fill(outcome, rest.start, rest.end);
      return outcomes;
    }
  }
  return outcomes;
}

/** A refusal that is not about what was sent: the next request would be refused the same way. */
const refusesEverything = (result: HttpResult, splits: (result: HttpResult) => boolean): boolean =>
  result.kind !== "response" || (result.status >= 300 && !splits(result));

/** A 413: the request was larger than the destination takes. */
export const isTooLarge = (result: HttpResult): boolean => result.kind === "response" && result.status === 413;

const CONTENT_REFUSALS = new Set([400, 413, 422]);

/** Refusals a request's content may cause (a malformed or oversized item): sent again in halves, so one generation does not take the others with it. */
export const refusesContent = (result: HttpResult): boolean => result.kind === "response" && CONTENT_REFUSALS.has(result.status);

/** At most this many generations' items in one request of a type whose body is a list (events, calls). */
export const MAX_GENERATIONS_PER_LIST = 100;

/**
 * sendMany for a type whose request body is a list of items (PostHog's events, Braintrust's
 * events, Weave's calls): the items of at most MAX_GENERATIONS_PER_LIST generations a request,
 * and a request refused for its content (refusesContent) sent again in halves down to the one
 * generation it is about, never cutting a generation's items apart. Each generation's outcome is
 * its request's; one without items is delivered with nothing sent.
 */
export async function sendGenerationItems<T>(
  perGeneration: readonly (readonly T[])[],
  post: (items: readonly T[]) => Promise<HttpResult>,
  classify: (result: HttpResult) => SendOutcome,
): Promise<SendOutcome[]> {
  const sent = perGeneration.filter((items) => items.length > 0);
  const ranges: Range[] = [];
  for (let start = 0; start < sent.length; start += MAX_GENERATIONS_PER_LIST)
    ranges.push({ start, end: Math.min(start + MAX_GENERATIONS_PER_LIST, sent.length) });
  const outcomes = await sendSplitting(sent, ranges, (batch) => post(batch.flat()), classify, refusesContent);
  let next = 0;
  return perGeneration.map((items) => (items.length > 0 ? outcomes[next++]! : DELIVERED));
}
