// deploy/kubernetes: what each overlay renders (kubectl kustomize where kubectl is installed, the
// manifests parsed here everywhere): probes, security context, replicas and strategy, the
// migration step, the Secret and the ConfigMap the pods read.
import { describe, expect, test } from "bun:test";
import { dirname, join } from "node:path";
import { parseGatewayFile } from "../../../src/config";
import { type K8sObject, kubectlKustomize, parseKustomization } from "../../support/kustomize";

const root = join(import.meta.dir, "../../../deploy/kubernetes");
const OVERLAYS = ["single", "scale-out"] as const;
type Overlay = (typeof OVERLAYS)[number];

const SECRET = "model-gateway";
const POD_LABELS = { "app.kubernetes.io/name": "model-gateway" };

type Container = {
  name: string;
  image: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: any }[];
  envFrom?: any[];
  [field: string]: any;
};

function only(objects: K8sObject[], kind: string): K8sObject {
  const found = objects.filter((o) => o.kind === kind);
  expect(found.map((o) => o.kind)).toEqual([kind]);
  return found[0]!;
}

const envOf = (container: Container, name: string) => container.env?.find((e) => e.name === name);

/** What every overlay must render, whichever way it was rendered. */
function checkCommon(objects: K8sObject[]): { deployment: K8sObject; gateway: Container; migrate: Container } {
  const deployment = only(objects, "Deployment");
  const pod = deployment.spec.template.spec;
  expect(deployment.spec.selector.matchLabels).toEqual(POD_LABELS);
  expect(deployment.spec.template.metadata.labels).toEqual(POD_LABELS);
  const gateway = (pod.containers as Container[]).find((c) => c.name === "gateway")!;
  expect(pod.containers).toHaveLength(1);

  // probes: readiness is /ready (503 while draining), liveness and start-up /health, on the named port 8080
  expect(gateway.ports).toEqual([{ name: "http", containerPort: 8080 }]);
  expect(gateway.readinessProbe.httpGet).toEqual({ path: "/ready", port: "http" });
  expect(gateway.livenessProbe.httpGet).toEqual({ path: "/health", port: "http" });
  expect(gateway.startupProbe.httpGet).toEqual({ path: "/health", port: "http" });
  // liveness waits for the start-up probe: up to periodSeconds x failureThreshold for migrations
  expect(gateway.startupProbe.periodSeconds * gateway.startupProbe.failureThreshold).toBeGreaterThanOrEqual(60);

  // the migration step: an init container running `gateway migrate` from the same image, on the same database
  const migrate = (pod.initContainers as Container[]).find((c) => c.name === "migrate")!;
  expect(migrate.args).toEqual(["migrate"]);
  expect(migrate.image).toBe(gateway.image);
  expect(envOf(migrate, "DATABASE_URL")).toEqual(envOf(gateway, "DATABASE_URL")!);
  expect(envOf(migrate, "GATEWAY_CONFIG")).toEqual(envOf(gateway, "GATEWAY_CONFIG")!);

  // security: non-root, no privilege escalation, read-only root with an emptyDir for temporary files, no capabilities
  expect(pod.securityContext).toMatchObject({
    runAsNonRoot: true,
    runAsUser: 65532,
    runAsGroup: 65532,
    fsGroup: 65532,
    seccompProfile: { type: "RuntimeDefault" },
  });
  const volumes = new Map<string, any>((pod.volumes as any[]).map((v) => [v.name, v]));
  for (const container of [gateway, migrate]) {
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
    const tmp = container.volumeMounts.find((m: any) => m.mountPath === "/tmp");
    expect(volumes.get(tmp.name).emptyDir).toBeDefined();
    expect(container.volumeMounts.find((m: any) => m.mountPath === "/data")).toBeDefined();
    for (const kind of ["requests", "limits"]) expect(Object.keys(container.resources[kind]).sort()).toEqual(["cpu", "memory"]);
    // the Secret the operator creates: every key of it is in the environment (provider keys)
    expect(container.envFrom).toEqual([{ secretRef: { name: SECRET } }]);
  }

  // the environment: no self-restart for Bun's request limit, the admin key required from the Secret
  expect(envOf(gateway, "BUN_CONFIG_MAX_HTTP_REQUESTS")).toEqual({ name: "BUN_CONFIG_MAX_HTTP_REQUESTS", value: "65535" });
  expect(envOf(gateway, "GATEWAY_ADMIN_KEY")).toEqual({ name: "GATEWAY_ADMIN_KEY", valueFrom: { secretKeyRef: { name: SECRET, key: "GATEWAY_ADMIN_KEY" } } });
  expect(envOf(gateway, "GATEWAY_INSTANCE_ID")!.valueFrom).toEqual({ fieldRef: { fieldPath: "metadata.name" } });
  // the kill comes after the drain and the close
  const grace = Number(envOf(gateway, "GATEWAY_SHUTDOWN_GRACE_SECONDS")!.value);
  expect(grace).toBe(30);
  expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(grace + 10);

  // gateway.yaml from the ConfigMap, mounted where GATEWAY_CONFIG points, a file the gateway accepts
  const configPath = envOf(gateway, "GATEWAY_CONFIG")!.value!;
  const configMount = gateway.volumeMounts.find((m: any) => m.mountPath === dirname(configPath));
  expect(configMount.readOnly).toBe(true);
  const configMap = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name === volumes.get(configMount.name).configMap.name)!;
  expect(configMap.metadata.name).toStartWith("model-gateway-config");
  expect(() => parseGatewayFile(configMap.data["gateway.yaml"], {})).not.toThrow();

  const service = only(objects, "Service");
  expect(service.spec.selector).toEqual(POD_LABELS);
  expect(service.spec.ports).toEqual([{ name: "http", port: 80, targetPort: "http" }]);
  const budget = only(objects, "PodDisruptionBudget");
  expect(budget.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: POD_LABELS } });
  return { deployment, gateway, migrate };
}

const CHECKS: Record<Overlay, (objects: K8sObject[]) => void> = {
  single(objects) {
    const { deployment, gateway, migrate } = checkCommon(objects);
    expect(objects.map((o) => o.kind).sort()).toEqual(["ConfigMap", "Deployment", "PersistentVolumeClaim", "PodDisruptionBudget", "Service"]);
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy).toEqual({ type: "Recreate" });
    for (const container of [gateway, migrate]) expect(envOf(container, "DATABASE_URL")).toEqual({ name: "DATABASE_URL", value: "file:/data/gateway.db" });
    expect(envOf(gateway, "REDIS_URL")).toBeUndefined();
    const claim = only(objects, "PersistentVolumeClaim");
    expect(claim.spec.accessModes).toEqual(["ReadWriteOnce"]);
    const data = deployment.spec.template.spec.volumes.find((v: any) => v.name === "data");
    expect(data).toEqual({ name: "data", persistentVolumeClaim: { claimName: claim.metadata.name } });
  },
  "scale-out"(objects) {
    const { deployment, gateway, migrate } = checkCommon(objects);
    expect(objects.map((o) => o.kind).sort()).toEqual(["ConfigMap", "Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Service"]);
    // the autoscaler owns the count, from 2 up, on CPU
    expect(deployment.spec.replicas).toBeUndefined();
    const autoscaler = only(objects, "HorizontalPodAutoscaler");
    expect(autoscaler.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: deployment.metadata.name });
    expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(autoscaler.spec.maxReplicas).toBeGreaterThan(autoscaler.spec.minReplicas);
    expect(autoscaler.spec.metrics).toEqual([{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }]);
    expect(deployment.spec.strategy).toEqual({ type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    const fromSecret = (key: string) => ({ name: key, valueFrom: { secretKeyRef: { name: SECRET, key } } });
    for (const key of ["DATABASE_URL", "REDIS_URL", "GATEWAY_SECRET_KEY"]) expect(envOf(gateway, key)).toEqual(fromSecret(key));
    for (const key of ["DATABASE_URL", "GATEWAY_SECRET_KEY"]) expect(envOf(migrate, key)).toEqual(fromSecret(key));
    expect(deployment.spec.template.spec.volumes.find((v: any) => v.name === "data")).toEqual({ name: "data", emptyDir: {} });
  },
};

/** The generated ConfigMap's name without kustomize's content hash. */
const withoutHash = (objects: K8sObject[]) => JSON.parse(JSON.stringify(objects).replace(/"model-gateway-config-[a-z0-9]{10}"/g, '"model-gateway-config"'));

describe.each(OVERLAYS)("overlay %s", (overlay) => {
  const dir = join(root, "overlays", overlay);

  test("the manifests, parsed and patched here", () => {
    CHECKS[overlay](parseKustomization(dir));
  });

  test.skipIf(!Bun.which("kubectl"))("kubectl kustomize renders it, with the same objects", () => {
    const rendered = kubectlKustomize(dir)!;
    CHECKS[overlay](rendered);
    const byName = (objects: K8sObject[]) => [...objects].sort((a, b) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`));
    expect(byName(withoutHash(rendered))).toEqual(byName(parseKustomization(dir)));
  });
});

test("strategic merge: null deletes, keyed lists merge item by item", async () => {
  const { strategicMerge } = await import("../../support/kustomize");
  const base = {
    strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } },
    env: [
      { name: "A", value: "1" },
      { name: "B", value: "2" },
    ],
    args: ["x"],
  };
  const patch = {
    strategy: { type: "Recreate", rollingUpdate: null },
    env: [
      { name: "B", value: "3" },
      { name: "C", value: "4" },
    ],
    args: ["y"],
  };
  expect(strategicMerge(base, patch)).toEqual({
    strategy: { type: "Recreate" },
    env: [
      { name: "B", value: "3" },
      { name: "C", value: "4" },
      { name: "A", value: "1" },
    ],
    args: ["y"],
  });
});
