// auth.oidc, auth.password and audit.retention_days: defaults, GATEWAY_OIDC_CLIENT_SECRET, the
// checks that name the field, and `config check` with the client secret masked.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { describeConfig } from "../../src/config-describe";
import { configError } from "../support/config-error";
import { tempDir } from "../support/gateway";

function withYaml(yaml: string, env: Record<string, string> = {}) {
  const dir = tempDir("gw-config-identity-");
  const path = join(dir, "gateway.yaml");
  writeFileSync(path, yaml);
  return () => loadConfig({ DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: path, ...env });
}

test("without the sections: password sign-in, no SSO, a year of audit events, and config check prints neither", () => {
  const config = loadConfig({});
  expect([config.auth, config.audit]).toEqual([{ password: true }, { retentionMs: 365 * 86_400_000 }]);
  const described = describeConfig(config);
  expect([described.auth, described.audit]).toEqual([undefined, undefined]);
});

test("auth.oidc with its defaults; the environment's client secret wins; config check masks it", () => {
  const yaml =
    'auth:\n  oidc:\n    issuer: "https://login.example.com/"\n    client_id: gw\n    client_secret: from-the-file-secret\naudit: { retention_days: 30 }\n';
  const config = withYaml(yaml, { GATEWAY_OIDC_CLIENT_SECRET: "from-the-environment-secret" })();
  expect(config.auth).toEqual({
    password: true,
    oidc: {
      issuer: "https://login.example.com",
      clientId: "gw",
      clientSecret: "from-the-environment-secret",
      scopes: ["openid", "email", "profile"],
      allowedEmailDomains: null,
      roleClaim: undefined,
      roleMapping: [],
      defaultRole: "member",
      buttonLabel: "Sign in with SSO",
    },
  });
  expect(config.audit.retentionMs).toBe(30 * 86_400_000);
  const described = describeConfig(config) as any;
  expect(described.auth.oidc.client_secret).toBe("from…et");
  expect(described.audit).toEqual({ retention_days: 30 });
});

test("role_mapping keeps the file's order; domains are lower-cased", () => {
  const yaml =
    'auth:\n  oidc:\n    issuer: "https://login.example.com"\n    client_id: gw\n    role_claim: groups\n    role_mapping: { ops: admin, staff: member }\n    allowed_email_domains: ["@Example.COM"]\n    default_role: admin\n';
  const { oidc } = withYaml(yaml)().auth;
  expect([oidc?.roleMapping, oidc?.allowedEmailDomains, oidc?.defaultRole]).toEqual([
    [
      ["ops", "admin"],
      ["staff", "member"],
    ],
    ["example.com"],
    "admin",
  ]);
});

test("errors name the field: an http issuer elsewhere than this machine, password off without SSO, an unknown role", () => {
  expect(configError(withYaml('auth:\n  oidc: { issuer: "http://login.example.com", client_id: gw }\n'))).toContain("auth.oidc.issuer: expected an https URL");
  expect(withYaml('auth:\n  oidc: { issuer: "http://127.0.0.1:8081", client_id: gw }\n')().auth.oidc?.issuer).toBe("http://127.0.0.1:8081");
  expect(configError(withYaml("auth: { password: false }\n"))).toContain("auth.password: expected true unless auth.oidc is set");
  expect(configError(withYaml('auth:\n  oidc: { issuer: "https://a.example", client_id: gw, default_role: owner }\n'))).toContain("auth.oidc.default_role");
});
