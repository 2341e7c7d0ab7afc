import type { GatewayProcess } from "../../support/gateway-process";

/** An inference key made through the API of a gateway process; its raw secret. */
export async function createInferenceKeyOn(gw: GatewayProcess): Promise<string> {
  const res = await gw.api("/api/v1/keys", { method: "POST", json: { name: "reload test" } });
  if (res.status !== 201) throw new Error(`create key failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}
