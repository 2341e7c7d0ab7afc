// gateway.yaml's gemini and vertex providers: base_url defaults, the vertex block, the key file read
// when the configuration loads (a config error naming the field when it cannot be used), what the
// catalog makes of it, and what `config check` shows.
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildCatalog } from "../../src/catalog/build-catalog";
import { loadConfig } from "../../src/config";
import { describeConfig } from "../../src/config-describe";
import { configError } from "../support/config-error";
import { tempDir } from "../support/gateway";
import { makeServiceAccount, type TestServiceAccount } from "../support/service-account";

const base = { DATABASE_URL: ":memory:", GATEWAY_DEFAULT_CATALOG: "false" };
let dir: string;
let account: TestServiceAccount;
let keyFile: string;

beforeAll(async () => {
  dir = tempDir();
  account = await makeServiceAccount({ tokenUri: "https://oauth2.googleapis.com/token", projectId: "sa-home-project" });
  keyFile = join(dir, "sa.json");
  await Bun.write(keyFile, account.json);
});

async function load(yaml: string, env: Record<string, string> = {}) {
  const path = join(dir, `gateway-${crypto.randomUUID()}.yaml`);
  await Bun.write(path, yaml);
  return loadConfig({ ...base, ...env, GATEWAY_CONFIG: path });
}

async function loadError(yaml: string, env: Record<string, string> = {}): Promise<string> {
  const path = join(dir, `gateway-${crypto.randomUUID()}.yaml`);
  await Bun.write(path, yaml);
  return configError(() => loadConfig({ ...base, ...env, GATEWAY_CONFIG: path }));
}

describe("gemini and vertex providers in gateway.yaml", () => {
  test("a vertex provider: base URL by location, the key file's text as its key, the project and location kept", async () => {
    const config = await load(
      `providers:\n  - { slug: vtx, api: vertex, vertex: { project: my-proj, location: us-east5, credentials_file: "${keyFile}" } }\n  - { slug: vg, api: vertex }\n`,
      { GOOGLE_APPLICATION_CREDENTIALS: keyFile },
    );
    const catalog = buildCatalog(config);
    const vtx = catalog.getProvider("vtx")!;
    expect([vtx.baseUrl, vtx.apiKey, vtx.vertex]).toEqual([
      "https://us-east5-aiplatform.googleapis.com/v1",
      account.json,
      { project: "my-proj", location: "us-east5" },
    ]);
    // no block: the global endpoint, the account's own project, the key from GOOGLE_APPLICATION_CREDENTIALS
    const vg = catalog.getProvider("vg")!;
    expect([vg.baseUrl, vg.apiKey, vg.vertex]).toEqual(["https://aiplatform.googleapis.com/v1", account.json, { location: "global" }]);
  });

  test("a vertex provider's base_url wins; a gemini provider needs one like the other APIs", async () => {
    const config = await load(
      `providers:\n  - { slug: vtx, api: vertex, base_url: "http://127.0.0.1:9/v1/", vertex: { location: europe-west4 } }\n  - { slug: gem, api: gemini, base_url: "https://generativelanguage.googleapis.com/v1beta", api_key: k }\n`,
    );
    expect(buildCatalog(config).getProvider("vtx")!.baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(buildCatalog(config).getProvider("vtx")!.apiKey).toBeUndefined();
    expect(await loadError("providers:\n  - { slug: gem, api: gemini, api_key: k }\n")).toBe(
      "config error: providers[0].base_url: expected an http(s) URL such as https://api.openai.com/v1",
    );
  });

  test("a bad block, or a key file that cannot be used, is a config error naming the field", async () => {
    expect(await loadError('providers:\n  - { slug: oc, api: openai-chat, base_url: "http://x/v1", vertex: { location: us-east5 } }\n')).toBe(
      'config error: providers[0].vertex: expected no vertex block: it applies to api: vertex only (got {"location":"us-east5"})',
    );
    expect(await loadError("providers:\n  - { slug: v, api: vertex, vertex: { location: US East } }\n")).toBe(
      'config error: providers[0].vertex.location: expected a Vertex AI location such as us-east5, europe-west1 or global (got "US East")',
    );
    expect(await loadError("providers:\n  - { slug: v, api: vertex, vertex: { region: x } }\n")).toBe(
      `config error: providers[0].vertex.region: expected only the keys project, location, credentials_file (got "x")`,
    );
    const missing = join(dir, "nope.json");
    expect(await loadError(`providers:\n  - { slug: v, api: vertex, vertex: { credentials_file: "${missing}" } }\n`)).toBe(
      `config error: providers[0].vertex.credentials_file: expected a readable service-account key file (got ${JSON.stringify(missing)})`,
    );
    const user = join(dir, "adc.json");
    await Bun.write(user, JSON.stringify({ type: "authorized_user", client_id: "x", refresh_token: "secret-refresh" }));
    expect(await loadError("providers:\n  - { slug: v, api: vertex }\n", { GOOGLE_APPLICATION_CREDENTIALS: user })).toBe(
      `config error: GOOGLE_APPLICATION_CREDENTIALS: expected a service-account key file (this one has no "type": "service_account") (got ${JSON.stringify(user)})`,
    );
    // an inline key is never repeated in the error
    const inline = await loadError('providers:\n  - { slug: v, api: vertex, api_key: \'{"type": "service_account", "private_key": "hush"}\' }\n');
    expect(inline).toBe("config error: providers[0].api_key: expected a service-account key file's JSON text (this one has no client_email)");
  });

  test("config check shows the vertex block and never the key file's text", async () => {
    const config = await load(`providers:\n  - { slug: vtx, api: vertex, vertex: { project: my-proj, location: us-east5, credentials_file: "${keyFile}" } }\n`);
    const described = describeConfig(config);
    expect((described.providers as unknown[])[0]).toEqual({
      slug: "vtx",
      api: "vertex",
      // filled in from the location when the file loads, as bedrock's default is
      base_url: "https://us-east5-aiplatform.googleapis.com/v1",
      api_key: undefined,
      vertex: { project: "my-proj", location: "us-east5", credentials_file: keyFile },
    });
    const printed = JSON.stringify(described);
    expect(printed).not.toContain("PRIVATE KEY");
    expect(printed).not.toContain(account.keyId);
  });
});
