/**
 * A gateway with its console and three people who sign in: the organization's owner (the user
 * the first start creates, given an email and a password here), an admin, and a member of one
 * workspace ("team"). `call` sends a console request as one of them (cookie, and the CSRF token
 * on a change), or as nobody.
 */
import { setPassword } from "../../../src/auth-web/accounts";
import { startTestGateway, type TestGateway, type TestGatewayOptions } from "../../support/gateway";
import { createUserWithPassword, signIn, TEST_ORIGIN } from "../../support/sign-in";

export const PASSWORD = "console password 123";
export type Person = "owner" | "admin" | "member";
export type Session = { cookie: string; csrfToken: string };
export const EMAIL: Record<Person, string> = { owner: "owner@example.com", admin: "admin@example.com", member: "member@example.com" };

export type ConsoleGateway = {
  gw: TestGateway;
  sessions: Record<Person, Session>;
  ids: Record<Person, string>;
  team: string;
  call(who: Person | null, method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
};

export async function startConsoleGateway(opts: TestGatewayOptions = {}): Promise<ConsoleGateway> {
  const gw = await startTestGateway(opts);
  const [owner] = await gw.ctx.store.users.list(0, 1);
  if (!owner || owner.role !== "owner") throw new Error("the first start made no owner");
  await gw.ctx.store.users.update(owner.id, { email: EMAIL.owner });
  await setPassword(gw.ctx, TEST_ORIGIN, owner.id, PASSWORD);
  await createUserWithPassword(gw.ctx, { id: "admin-user", email: EMAIL.admin, password: PASSWORD, role: "admin" });
  await createUserWithPassword(gw.ctx, { id: "member-user", email: EMAIL.member, password: PASSWORD, role: "member" });
  const created = await gw.api("/api/v1/workspaces", { method: "POST", json: { name: "Team", slug: "team" } });
  const team = ((await created.json()) as { data: { id: string } }).data.id;
  const added = await gw.api(`/api/v1/workspaces/${team}/members/add`, { method: "POST", json: { user_ids: ["member-user"] } });
  if (added.status !== 200) throw new Error(`adding the member failed: ${added.status}`);
  const sessions = {
    owner: await signIn(gw.url, EMAIL.owner, PASSWORD),
    admin: await signIn(gw.url, EMAIL.admin, PASSWORD),
    member: await signIn(gw.url, EMAIL.member, PASSWORD),
  };
  const call: ConsoleGateway["call"] = (who, method, path, body) => {
    const headers: Record<string, string> = {};
    if (who) {
      headers.cookie = sessions[who].cookie;
      if (method !== "GET") headers["x-csrf-token"] = sessions[who].csrfToken;
    }
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(`${gw.url}${path}`, { method, headers, redirect: "manual", body: body === undefined ? undefined : JSON.stringify(body) });
  };
  return { gw, sessions, ids: { owner: owner.id, admin: "admin-user", member: "member-user" }, team, call, close: () => gw.close() };
}
