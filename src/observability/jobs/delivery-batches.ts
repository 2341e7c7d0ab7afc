import type { Delivery } from "../pipeline/select-deliveries";

/**
 * A drain's deliveries as the attempts that send them: those to one destination whose type sends
 * many generations together (`together`) in one attempt, in the order they came; every other
 * delivery in an attempt of its own. Attempts come in the order of their first delivery.
 */
export function deliveryBatches(deliveries: readonly Delivery[], together: (delivery: Delivery) => boolean): Delivery[][] {
  const batches: Delivery[][] = [];
  const byDestination = new Map<string, Delivery[]>();
  for (const delivery of deliveries) {
    if (!together(delivery)) {
      batches.push([delivery]);
      continue;
    }
    const batch = byDestination.get(delivery.destination.id);
    if (batch) batch.push(delivery);
    else {
      const opened = [delivery];
      byDestination.set(delivery.destination.id, opened);
      batches.push(opened);
    }
  }
  return batches;
}
