import type { JobStats } from "../store/job-store";
import { Gauge, type Registry } from "./prom-client";

export const NO_JOB_STATS: JobStats = { queues: [], outcomes: [], oldestDue: [] };

/**
 * The job queue's figures, read from the store once per scrape (the first of these metrics
 * to collect asks, the others use its answer): depth by kind and state, attempts by outcome since
 * the database was created, and how long the oldest due job of each kind has waited.
 */
export function registerJobMetrics(registers: Registry[], stats: () => Promise<JobStats>, now: () => number): void {
  let scrape: Promise<JobStats> = Promise.resolve(NO_JOB_STATS);
  new Gauge({
    name: "gateway_jobs",
    help: "Background jobs by kind and state (all instances)",
    labelNames: ["kind", "state"],
    registers,
    async collect() {
      scrape = stats();
      const { queues } = await scrape;
      this.reset();
      for (const q of queues) this.set({ kind: q.kind, state: q.state }, q.count);
    },
  });
  new Gauge({
    name: "gateway_job_attempts_total",
    help: "Finished job attempts by kind and outcome: succeeded, failed (retried later), dead (no attempt left); all instances, since the database was created",
    labelNames: ["kind", "outcome"],
    registers,
    async collect() {
      const { outcomes } = await scrape;
      this.reset();
      for (const o of outcomes) this.set({ kind: o.kind, outcome: o.outcome }, o.count);
    },
  });
  new Gauge({
    name: "gateway_jobs_oldest_pending_age_seconds",
    help: "How long the oldest due job of each kind has waited to run",
    labelNames: ["kind"],
    registers,
    async collect() {
      const { oldestDue } = await scrape;
      const at = now();
      this.reset();
      for (const o of oldestDue) this.set({ kind: o.kind }, Math.max(0, at - o.runAt) / 1000);
    },
  });
}
