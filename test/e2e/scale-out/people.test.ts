// People across two instances on one PostgreSQL + Redis: a user removed on A loses their keys on
// B at once (by the API, and by the CLI writing through Redis), a session made on A works on B,
// and failed sign-ins on both instances add up to one lock.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { loginForm, signIn } from "../../support/sign-in";
import { type Cluster, describeCluster, startCluster } from "./cluster";

// argon2id checks take a few hundred ms each on a loaded machine; bun's default per-test timeout is 5 s
setDefaultTimeout(30_000);

let cluster: Cluster;

function cli(args: string[], stdin?: string) {
  const proc = Bun.spawnSync(["bun", "src/main.ts", ...args], {
    env: { ...process.env, LOG_LEVEL: "error", ...cluster.env },
    stdin: stdin === undefined ? "ignore" : Buffer.from(stdin),
  });
  if (proc.exitCode !== 0) throw new Error(`gateway ${args.join(" ")}: ${proc.stderr}`);
  return proc.stdout.toString();
}

async function keyOf(user: string): Promise<string> {
  const res = await cluster.a.api("/api/v1/keys", { method: "POST", json: { name: "k", creator_user_id: user } });
  return ((await res.json()) as { key: string }).key;
}

/** how long after `removal` resolved B first refuses the key (B had it cached) */
async function refusedOnBAfter(key: string, removal: () => Promise<unknown>): Promise<number> {
  expect((await cluster.b.api("/api/v1/key", { key })).status).toBe(200);
  await removal();
  const removedAt = performance.now();
  let status = 200;
  while (status === 200 && performance.now() - removedAt < 1_000) status = (await cluster.b.api("/api/v1/key", { key })).status;
  expect(status).toBe(401);
  return performance.now() - removedAt;
}

describeCluster("people on two instances", () => {
  beforeAll(async () => {
    cluster = await startCluster("catalog: { default: false }\n");
  }, 60_000);
  afterAll(() => cluster?.close());

  test("removed on A through the API: the user's key is refused on B within 100 ms", async () => {
    cli(["users", "add", "--id", "gil", "--email", "gil@example.com"]);
    const key = await keyOf("gil");
    const elapsed = await refusedOnBAfter(key, () => cluster.a.api("/api/v1/organization/members/gil", { method: "DELETE" }));
    console.log(`user removed on A: key refused on B after ${elapsed.toFixed(1)} ms`);
    expect(elapsed).toBeLessThan(100);
  });

  test("removed by the CLI (through Redis): refused on B within 100 ms", async () => {
    cli(["users", "add", "--id", "hal", "--email", "hal@example.com"]);
    const key = await keyOf("hal");
    const elapsed = await refusedOnBAfter(key, async () => cli(["users", "remove", "hal"]));
    console.log(`user removed by the CLI: key refused on B after ${elapsed.toFixed(1)} ms`);
    expect(elapsed).toBeLessThan(100);
  });

  test("a session made on A works on B; failed sign-ins on A and B add up to one lock", async () => {
    cli(["users", "add", "--id", "ivy", "--email", "ivy@example.com", "--password-stdin"], "ivy's good password");
    const { cookie } = await signIn(cluster.a.url, "ivy@example.com", "ivy's good password");
    expect(await (await fetch(`${cluster.b.url}/login`, { headers: { cookie } })).text()).toContain("Signed in as <strong>ivy@example.com</strong>");
    const fail = async (url: string) => {
      const form = await loginForm(url);
      return (
        await fetch(`${url}/login`, {
          method: "POST",
          redirect: "manual",
          headers: { cookie: form.formCookie, "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 200)}` },
          body: new URLSearchParams({ csrf_token: form.csrfToken, email: "ivy@example.com", password: "wrong password" }),
        })
      ).status;
    };
    const statuses = [await fail(cluster.a.url), await fail(cluster.b.url), await fail(cluster.a.url), await fail(cluster.b.url), await fail(cluster.a.url)];
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    await expect(signIn(cluster.b.url, "ivy@example.com", "ivy's good password")).rejects.toThrow("sign-in failed: 429");
  }, 30_000);
});
