import type { JobStore } from "../store/job-store";
import type { Store } from "../store/store";

/** Listeners of "jobs were enqueued (or retried) and committed": the job workers of this process. */
export type JobWakeups = { notify(): void; listen(listener: () => void): () => void };

export function jobWakeups(): JobWakeups {
  const listeners = new Set<() => void>();
  return {
    notify: () => listeners.forEach((listener) => listener()),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function notifying(jobs: JobStore, notify: () => void): JobStore {
  return {
    ...jobs,
    enqueue: async (job) => {
      const stored = await jobs.enqueue(job);
      notify();
      return stored;
    },
    retry: async (id, now) => {
      const retried = await jobs.retry(id, now);
      if (retried) notify();
      return retried;
    },
  };
}

/**
 * Wakes the workers when a job is enqueued: at once outside a transaction, after the commit
 * inside one (before it, a worker would find nothing, and a rolled-back job never exists).
 */
export function withJobWakeups(store: Store, wakeups: JobWakeups): Store {
  return {
    ...store,
    jobs: notifying(store.jobs, wakeups.notify),
    async transaction(fn) {
      let enqueued = false;
      const result = await store.transaction((tx) => fn({ ...tx, jobs: notifying(tx.jobs, () => (enqueued = true)) }));
      if (enqueued) wakeups.notify();
      return result;
    },
  };
}
