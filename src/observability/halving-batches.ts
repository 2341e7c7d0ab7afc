import type { SendOutcome, SenderHttp } from "./contract";

type HttpResult = Awaited<ReturnType<SenderHttp>>;

/** Items [start, end) of a batch send. */
type Range = { start: number; end: number };

/**
 * Sends items in the requests `batches` cuts them into (index ranges, in order) and answers each
 * item's outcome, in order. A request the destination refuses for what its content may cause
 * (`splits`: 413 for PostHog; 400, 413 and 422 for OTLP) is sent again as two halves, down to
 * single items, as PostHog's own clients do with a 413: one item the destination cannot take
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

/** One request for all items, halved on a 413 (PostHog's rule). */
export const sendHalvingOn413 = <T>(items: readonly T[], post: (batch: readonly T[]) => Promise<HttpResult>, classify: (result: HttpResult) => SendOutcome): Promise<SendOutcome[]> =>
  sendSplitting(items, [{ start: 0, end: items.length }], post, classify, (result) => result.kind === "response" && result.status === 413);
