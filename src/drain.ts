/**
 * Draining for load balancers. A balancer or a Kubernetes Service notices that an instance is
 * going away only some time after the instance was told to stop: its next health check, or the
 * endpoint update reaching every node. A listener closed at the signal turns the requests routed
 * in that time into refused connections. So from the signal on `/ready` answers 503 (the
 * balancer takes the instance out), answers carry `Connection: close` (a keep-alive client's
 * next request opens a new connection, which the balancer sends elsewhere), and the listener
 * stays open and serves until no request has come for a quiet spell: traffic that still arrives
 * means someone still routes here. A balancer that never stops (one that ignores /ready) is
 * given half the grace; the requests it sent have the other half to finish.
 */
import type { Server } from "bun";

/** Probes go on during a drain (kubelet, the balancer's health check) and say nothing about traffic. */
const PROBE_PATHS = new Set(["/health", "/ready"]);

/**
 * The quiet spell after which a draining instance stops listening. A balancer still routing here
 * keeps the drain going (its requests come closer together than this); 5 s covers the endpoint
 * update of a Service reaching kube-proxy and ingress controllers, a few seconds by Kubernetes'
 * own account (kubernetes.io, "Pod Lifecycle", termination of Pods), for an instance that gets
 * few requests. Someone at a terminal (SIGINT) does not wait for it.
 */
export const DRAIN_QUIET_MS = 5_000;

/** How often the quiet spell is checked: what a request that arrives and ends in between is seen by is the arrival count. */
const POLL_MS = 50;

export type Drain = {
  /** true from `begin()` on */
  draining(): boolean;
  begin(): void;
  /** the app's onRequest: while draining, counts a request that is not a probe and has its answer close the connection */
  onRequest(request: Request, set: { headers: Record<string, unknown> }): void;
  /**
   * Resolves once neither a request (probes aside) arrived nor one was in flight for `quietMs`,
   * or at `deadline` (performance.now() time), whichever comes first.
   */
  quiet(server: Pick<Server<undefined>, "pendingRequests">, quietMs: number, deadline: number): Promise<"quiet" | "deadline">;
};

const pathOf = (url: string) => {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end);
};

export function createDrain(now: () => number = () => performance.now()): Drain {
  let draining = false;
  let arrivals = 0;
  return {
    draining: () => draining,
    begin() {
      draining = true;
    },
    onRequest(request, set) {
      // nothing on the hot path before a drain
      if (!draining || PROBE_PATHS.has(pathOf(request.url))) return;
      arrivals++;
      set.headers.connection = "close";
    },
    async quiet(server, quietMs, deadline) {
      let seen = arrivals;
      let lastBusy = now();
      for (;;) {
        const t = now();
        if (t >= deadline) return "deadline";
        if (server.pendingRequests > 0 || arrivals !== seen) {
          seen = arrivals;
          lastBusy = t;
        } else if (t - lastBusy >= quietMs) return "quiet";
        await Bun.sleep(Math.min(POLL_MS, deadline - t));
      }
    },
  };
}
