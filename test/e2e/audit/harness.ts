// What the audit-log e2e files share: a one-model gateway whose upstream is never called, the
// management key's hash (the actor of every event), and calls that fail loudly so a broken change
// cannot pass as "no event written".
import { expect } from "bun:test";
import { ADMIN_KEY, startTestGateway, type TestGateway, type TestGatewayOptions } from "../../support/gateway";

export const adminKeyHash = new Bun.CryptoHasher("sha256").update(ADMIN_KEY).digest("hex");

export const auditYaml = `
catalog: { default: false }
providers:
  - { slug: mock, api: openai-chat, base_url: "http://127.0.0.1:9/v1", api_key: gateway-own-key }
models:
  - id: test/alpha
    endpoints:
      - { provider: mock, model: alpha-1, pricing: { prompt: "0.00001", completion: "0.0001" } }
`;

export type AuditGateway = {
  gw: TestGateway;
  /** a management call with the test's user agent; throws on any status of 300 or more */
  call(method: string, path: string, json?: unknown): Promise<any>;
  /** every event the listing holds, newest first (at most 500) */
  events(query?: string): Promise<any[]>;
};

export async function startAuditGateway(userAgent: string, options: Omit<TestGatewayOptions, "yaml"> = {}): Promise<AuditGateway> {
  const gw = await startTestGateway({ yaml: auditYaml, ...options });
  return {
    gw,
    async call(method, path, json) {
      const res = await gw.api(path, { method, json, headers: { "user-agent": userAgent } });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
    async events(query = "") {
      const res = await gw.api(`/api/v1/audit-logs?limit=500${query}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as any).data;
    },
  };
}
