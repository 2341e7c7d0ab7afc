/**
 * Whether a TCP connection to `address:port` opens within `timeoutMs`. Bun's fetch has no
 * connect timeout of its own, so an unreachable receiver (a firewall dropping packets) would hold
 * a delivery for the whole 30 s budget; this probe lets it fail after the connect limit instead.
 * It costs one extra handshake per delivery; `recentlyReached` spares it for an address that
 * opened a moment ago.
 */
export async function probeConnect(address: string, port: number, timeoutMs: number): Promise<"open" | "refused" | "timeout"> {
  let timer: Timer | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, timeoutMs, "timeout")));
  const connect = Bun.connect({ hostname: address, port, socket: { data() {}, error() {} } }).then(
    (socket) => {
      socket.end();
      return "open" as const;
    },
    () => "refused" as const,
  );
  try {
    return await Promise.race([connect, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long an address that opened is taken to be reachable without a new probe. */
export const REACHED_TTL_MS = 10_000;

/**
 * A probe that remembers the addresses it found open for `ttlMs`: observability destinations
 * get a delivery per generation, and a handshake each (both sides' CPU, a round trip) buys
 * nothing when the last one succeeded a moment ago. `forget` drops an address whose request then
 * failed to connect, so the next delivery probes it again.
 */
export function recentlyReached(probe: typeof probeConnect, ttlMs = REACHED_TTL_MS, clock: () => number = performance.now.bind(performance)) {
  const reached = new Map<string, number>();
  return {
    async probe(address: string, port: number, timeoutMs: number): Promise<"open" | "refused" | "timeout"> {
      const key = `${address}|${port}`;
      const at = reached.get(key);
      if (at !== undefined && clock() - at < ttlMs) return "open";
      const result = await probe(address, port, timeoutMs);
      if (result === "open") {
        // bounded: the oldest entry goes first
        if (reached.size >= 1024) reached.delete(reached.keys().next().value!);
        reached.delete(key);
        reached.set(key, clock());
      } else reached.delete(key);
      return result;
    },
    forget(address: string, port: number): void {
      reached.delete(`${address}|${port}`);
    },
  };
}
