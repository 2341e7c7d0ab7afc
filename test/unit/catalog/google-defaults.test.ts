// The default catalog's Google providers: AI Studio through the native Gemini API, and Vertex AI
// (Google's and Anthropic's models) when GOOGLE_VERTEX_PROJECT, GOOGLE_VERTEX_LOCATION and
// GOOGLE_APPLICATION_CREDENTIALS are all set; `config check` says which are active and why.
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildCatalog } from "../../../src/catalog/build-catalog";
import { canonicalName } from "../../../src/catalog/models-dev-naming";
import { loadConfig } from "../../../src/config";
import { activeDefaultProviders } from "../../../src/config-describe";
import { configError } from "../../support/config-error";
import { tempDir } from "../../support/gateway";
import { makeServiceAccount, type TestServiceAccount } from "../../support/service-account";

let keyFile: string;
let account: TestServiceAccount;
const base = { DATABASE_URL: ":memory:" };

beforeAll(async () => {
  account = await makeServiceAccount({ tokenUri: "https://oauth2.googleapis.com/token" });
  keyFile = join(tempDir(), "sa.json");
  await Bun.write(keyFile, account.json);
});

describe("Google in the default catalog", () => {
  test("AI Studio is served through the Gemini API with its key variable", () => {
    const catalog = buildCatalog(loadConfig({ ...base, GOOGLE_GENERATIVE_AI_API_KEY: "AIza-env" }));
    expect(catalog.getProvider("google-ai-studio")).toMatchObject({
      api: "gemini",
      baseUrl: "https://generativelanguage.googleapis.com/v1beta",
      apiKey: "AIza-env",
      envVar: "GOOGLE_GENERATIVE_AI_API_KEY",
    });
  });

  test("Vertex AI serves when its three variables are set: the key file read, the location's endpoint, Gemini and Claude models", () => {
    const env = { ...base, GOOGLE_VERTEX_PROJECT: "env-project", GOOGLE_VERTEX_LOCATION: "us-east5", GOOGLE_APPLICATION_CREDENTIALS: keyFile };
    const config = loadConfig(env);
    const catalog = buildCatalog(config);
    expect(catalog.getProvider("google-vertex")).toMatchObject({
      api: "vertex",
      name: "Google",
      baseUrl: "https://us-east5-aiplatform.googleapis.com/v1",
      apiKey: account.json,
      vertex: { project: "env-project", location: "us-east5" },
    });
    const served = (id: string) => catalog.getModel(id)?.endpoints.map((e) => `${e.provider.slug}:${e.upstreamModel}`);
    expect(served("google/gemini-2.5-pro")).toEqual([
      "google-ai-studio:gemini-2.5-pro",
      "google-vertex:gemini-2.5-pro",
      "fastrouter:google/gemini-2.5-pro",
      "openrouter:google/gemini-2.5-pro",
      "requesty:google/gemini-2.5-pro",
      "vercel:google/gemini-2.5-pro",
    ]);
    expect(served("anthropic/claude-sonnet-4")).toContain("google-vertex:claude-sonnet-4@20250514");
    expect(activeDefaultProviders(config)).toContainEqual({
      slug: "google-vertex",
      enabled_by: "GOOGLE_VERTEX_PROJECT, GOOGLE_VERTEX_LOCATION, GOOGLE_APPLICATION_CREDENTIALS",
    });
  });

  test("short of one variable it does not serve, and its key file is not read", () => {
    const config = loadConfig({ ...base, GOOGLE_VERTEX_PROJECT: "env-project", GOOGLE_APPLICATION_CREDENTIALS: "/nonexistent/sa.json" });
    expect(buildCatalog(config).getProvider("google-vertex")?.apiKey).toBeUndefined();
    expect(activeDefaultProviders(config).map((p) => p.slug)).not.toContain("google-vertex");
  });

  test("with all three set, a key file that cannot be used is a config error naming the variable", () => {
    expect(
      configError(() =>
        loadConfig({ ...base, GOOGLE_VERTEX_PROJECT: "p", GOOGLE_VERTEX_LOCATION: "global", GOOGLE_APPLICATION_CREDENTIALS: "/nonexistent/sa.json" }),
      ),
    ).toBe('config error: GOOGLE_APPLICATION_CREDENTIALS: expected a readable service-account key file (got "/nonexistent/sa.json")');
  });

  test("Vertex AI's Claude ids name the same models as Anthropic's", () => {
    expect(canonicalName("google-vertex-anthropic", "claude-3-7-sonnet@20250219").id).toBe("anthropic/claude-3.7-sonnet");
    expect(canonicalName("google-vertex-anthropic", "claude-opus-4-1@20250805").id).toBe("anthropic/claude-opus-4.1");
  });
});
