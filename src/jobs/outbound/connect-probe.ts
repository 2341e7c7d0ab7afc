/**
 * Whether a TCP connection to `address:port` opens within `timeoutMs`. Bun's fetch has no
 * connect timeout of its own, so an unreachable receiver (a firewall dropping packets) would hold
 * a delivery for the whole 30 s budget; this probe lets it fail after the connect limit instead.
 * It costs one extra handshake per delivery, which webhooks (rare, retried in minutes) can pay.
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
