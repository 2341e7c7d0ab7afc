// rate_limit on keys and workspaces: accepted at creation and by PATCH (each limit optional,
// null clears), shown by GET and list, and refused with a 400 naming the field when wrong.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const NONE = { rpm: null, tpm: null, concurrency: null };
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const patchKey = (hash: string, body: unknown) => gw.api(`/api/v1/keys/${hash}`, { method: "PATCH", json: body }).then(json);

describe("a key's rate_limit", () => {
  test("creation stores it; GET and list show it; a key without one shows nulls", async () => {
    const limited = await createInferenceKey(gw, { name: "rl-create", rate_limit: { rpm: 60, tpm: 90_000, concurrency: 4 } });
    expect(limited.data.rate_limit).toEqual({ rpm: 60, tpm: 90_000, concurrency: 4 });
    expect((await json(await gw.api(`/api/v1/keys/${limited.hash}`))).body.data.rate_limit).toEqual({ rpm: 60, tpm: 90_000, concurrency: 4 });
    const listed = (await json(await gw.api("/api/v1/keys"))).body.data.find((k: any) => k.hash === limited.hash);
    expect(listed.rate_limit).toEqual({ rpm: 60, tpm: 90_000, concurrency: 4 });

    const partial = await createInferenceKey(gw, { name: "rl-partial", rate_limit: { tpm: 500 } });
    expect(partial.data.rate_limit).toEqual({ rpm: null, tpm: 500, concurrency: null });
    expect((await createInferenceKey(gw, { name: "rl-none" })).data.rate_limit).toEqual(NONE);
  });

  test("PATCH sets what it sends, keeps what it omits, clears a limit with null and all of them with rate_limit: null", async () => {
    const { hash } = await createInferenceKey(gw, { name: "rl-patch", rate_limit: { rpm: 10, tpm: 1000 } });
    expect((await patchKey(hash, { rate_limit: { concurrency: 3 } })).body.data.rate_limit).toEqual({ rpm: 10, tpm: 1000, concurrency: 3 });
    expect((await patchKey(hash, { rate_limit: { rpm: null, tpm: 2000 } })).body.data.rate_limit).toEqual({ rpm: null, tpm: 2000, concurrency: 3 });
    expect((await patchKey(hash, { name: "renamed" })).body.data.rate_limit).toEqual({ rpm: null, tpm: 2000, concurrency: 3 });
    expect((await patchKey(hash, { rate_limit: null })).body.data.rate_limit).toEqual(NONE);
    expect((await json(await gw.api(`/api/v1/keys/${hash}`))).body.data.rate_limit).toEqual(NONE);
  });

  const invalid: Array<[unknown, string, string]> = [
    [{ rpm: 0 }, "rate_limit.rpm", "expected an integer from 1 to 2147483647 or null, got 0"],
    [{ tpm: -5 }, "rate_limit.tpm", "expected an integer from 1 to 2147483647 or null, got -5"],
    [{ concurrency: 1.5 }, "rate_limit.concurrency", "expected an integer from 1 to 2147483647 or null, got 1.5"],
    [{ rpm: "ten" }, "rate_limit.rpm", 'expected an integer from 1 to 2147483647 or null, got "ten"'],
    [{ rpm: 2_147_483_648 }, "rate_limit.rpm", "expected an integer from 1 to 2147483647 or null, got 2147483648"],
    [{ rps: 3 }, "rate_limit.rps", "unknown field"],
    [60, "rate_limit", "expected an object or null, got 60"],
  ];

  test.each(invalid)("creation and PATCH refuse rate_limit %j with a 400 naming %s", async (rateLimit, field, problem) => {
    const expected = { error: { code: 400, message: `Invalid field '${field}': ${problem}`, metadata: { location: "body", field } } };
    expect(await json(await gw.api("/api/v1/keys", { method: "POST", json: { name: "bad", rate_limit: rateLimit } }))).toEqual({ status: 400, body: expected });
    const { hash } = await createInferenceKey(gw, { name: "rl-valid", rate_limit: { rpm: 7 } });
    expect(await patchKey(hash, { rate_limit: rateLimit })).toEqual({ status: 400, body: expected });
    expect((await json(await gw.api(`/api/v1/keys/${hash}`))).body.data.rate_limit).toEqual({ rpm: 7, tpm: null, concurrency: null });
  });
});

describe("a workspace's default rate_limit", () => {
  test("creation and PATCH store it the same way; GET shows it", async () => {
    const created = await json(await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Limited", slug: "rl-limited", rate_limit: { rpm: 30 } } }));
    expect(created.status).toBe(201);
    expect(created.body.data.rate_limit).toEqual({ rpm: 30, tpm: null, concurrency: null });
    const id = created.body.data.id;
    const patched = await json(await gw.api(`/api/v1/workspaces/${id}`, { method: "PATCH", json: { rate_limit: { concurrency: 2, rpm: null } } }));
    expect(patched.body.data.rate_limit).toEqual({ rpm: null, tpm: null, concurrency: 2 });
    expect((await json(await gw.api(`/api/v1/workspaces/rl-limited`))).body.data.rate_limit).toEqual({ rpm: null, tpm: null, concurrency: 2 });
    expect((await json(await gw.api(`/api/v1/workspaces/${id}`, { method: "PATCH", json: { rate_limit: null } }))).body.data.rate_limit).toEqual(NONE);
  });

  test("a bad default is a 400 naming the field", async () => {
    const res = await json(await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Bad", slug: "rl-bad", rate_limit: { tpm: 0 } } }));
    expect(res).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: "Invalid field 'rate_limit.tpm': expected an integer from 1 to 2147483647 or null, got 0",
          metadata: { location: "body", field: "rate_limit.tpm" },
        },
      },
    });
  });
});
