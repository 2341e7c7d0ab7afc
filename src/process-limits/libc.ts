import type { Library } from "bun:ffi";

type Ffi = typeof import("bun:ffi");

/**
 * The few libc calls Bun has no API for: replacing the process image (execve, so the process
 * keeps its PID, its parent and its signals), the open-file limit (getrlimit/setrlimit) and a
 * listening socket's accept backlog (listen, and getsockopt/getsockname to find that socket).
 * Null where no libc can be opened (Windows, an unknown libc name): callers then go on without.
 */
const CANDIDATES: Record<string, string[]> = {
  linux: [
    "libc.so.6",
    `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`,
    `/lib/ld-musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`,
  ],
  darwin: ["/usr/lib/libSystem.B.dylib"],
};

const SYMBOLS = {
  execve: { args: ["ptr", "ptr", "ptr"], returns: "i32" },
  getrlimit: { args: ["i32", "ptr"], returns: "i32" },
  setrlimit: { args: ["i32", "ptr"], returns: "i32" },
  listen: { args: ["i32", "i32"], returns: "i32" },
  getsockopt: { args: ["i32", "i32", "i32", "ptr", "ptr"], returns: "i32" },
  getsockname: { args: ["i32", "ptr", "ptr"], returns: "i32" },
} as const;

/** the C functions, and `ptr` to pass them a buffer */
type Libc = { fn: Library<typeof SYMBOLS>["symbols"]; ptr: Ffi["ptr"] };

let opened: Libc | null | undefined;

function libc(): Libc | null {
  if (opened !== undefined) return opened;
  opened = null;
  // required here, not imported: Bun hoists a builtin's import to the top of the bundle, where
  // it would load with every start of the binary and of each job worker thread
  const ffi = require("bun:ffi") as Ffi;
  for (const name of CANDIDATES[process.platform] ?? []) {
    try {
      opened = { fn: ffi.dlopen(name, SYMBOLS).symbols, ptr: ffi.ptr };
      break;
    } catch {
      // the next name: glibc and musl name their libc differently
    }
  }
  return opened;
}

const cString = (s: string) => Buffer.from(`${s}\0`);

/** A NULL-terminated array of C strings; `keep` holds the buffers alive until the call. */
function cStringArray(list: readonly string[], keep: Buffer[], ptr: Ffi["ptr"]): BigUint64Array {
  const array = new BigUint64Array(list.length + 1);
  list.forEach((s, i) => {
    const b = cString(s);
    keep.push(b);
    array[i] = BigInt(ptr(b));
  });
  return array;
}

/** Replaces this process with `path argv` under `env`; returns only when that failed. */
export function execve(path: string, argv: readonly string[], env: Record<string, string>): boolean {
  const c = libc();
  if (!c) return false;
  const { fn, ptr } = c;
  const keep: Buffer[] = [];
  const file = cString(path);
  const args = cStringArray(argv, keep, ptr);
  const vars = cStringArray(
    Object.entries(env).map(([k, v]) => `${k}=${v}`),
    keep,
    ptr,
  );
  fn.execve(ptr(file), ptr(args), ptr(vars));
  return false;
}

/** RLIMIT_NOFILE's number differs: Linux 7, macOS 8. */
const RLIMIT_NOFILE = process.platform === "darwin" ? 8 : 7;

export type Rlimit = { soft: bigint; hard: bigint };

export function getOpenFileLimit(): Rlimit | null {
  const c = libc();
  if (!c) return null;
  const limit = new BigUint64Array(2);
  if (c.fn.getrlimit(RLIMIT_NOFILE, c.ptr(limit)) !== 0) return null;
  return { soft: limit[0]!, hard: limit[1]! };
}

export function setOpenFileSoftLimit(soft: bigint, hard: bigint): boolean {
  const c = libc();
  if (!c) return false;
  return c.fn.setrlimit(RLIMIT_NOFILE, c.ptr(new BigUint64Array([soft, hard]))) === 0;
}

/** listen(2) on a socket that listens already: Linux only moves its accept backlog. */
export function relisten(fd: number, backlog: number): boolean {
  const c = libc();
  return c !== null && c.fn.listen(fd, backlog) === 0;
}

/** Linux's numbers (the same on x86_64 and arm64) */
const SOL_SOCKET = 1;
const SO_ACCEPTCONN = 30;
const AF_INET = 2;
const AF_INET6 = 10;

/**
 * The port `fd` listens on when it is a listening IPv4 or IPv6 socket (Linux), else null: asks
 * the socket itself, since reading /proc/net/tcp walks the whole connection table (about 5 ms
 * a file here, on the start's path).
 */
export function listeningPort(fd: number): number | null {
  const c = libc();
  if (c === null || process.platform !== "linux") return null;
  const { fn, ptr } = c;
  const flag = new Int32Array(1);
  const flagSize = new Uint32Array([4]);
  if (fn.getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, ptr(flag), ptr(flagSize)) !== 0 || flag[0] !== 1) return null;
  // sockaddr_in and sockaddr_in6 both start with a 16-bit family and the port in network order
  const address = new Uint8Array(128);
  const addressSize = new Uint32Array([address.length]);
  if (fn.getsockname(fd, ptr(address), ptr(addressSize)) !== 0) return null;
  const view = new DataView(address.buffer);
  const family = view.getUint16(0, true);
  return family === AF_INET || family === AF_INET6 ? view.getUint16(2, false) : null;
}
