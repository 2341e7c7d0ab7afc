/**
 * The objects a kustomization renders: `kubectl kustomize DIR` where kubectl is on the machine,
 * and the part of kustomize that deploy/kubernetes uses, done here, where it is not (resources,
 * configMapGenerator with files, patches by path: strategic merge and `$patch: delete`). A key
 * this does not know fails the rendering, so the two cannot silently differ; where kubectl is
 * present the tests compare them.
 */
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";

export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; [field: string]: any };

const KNOWN_KEYS = new Set(["apiVersion", "kind", "resources", "patches", "configMapGenerator"]);

/** Lists of these merge item by item on this key (Kubernetes' patchMergeKey); other lists are replaced. */
const MERGE_KEYS: Record<string, string> = {
  containers: "name",
  initContainers: "name",
  env: "name",
  volumes: "name",
  volumeMounts: "mountPath",
  ports: "containerPort",
};

/** Every document of a YAML stream (Bun.YAML.parse gives one document alone, several as an array). */
function parseDocuments(text: string): K8sObject[] {
  const parsed = Bun.YAML.parse(text);
  return (Array.isArray(parsed) ? parsed : [parsed]).filter((d) => d !== null) as K8sObject[];
}

const documents = (path: string) => parseDocuments(readFileSync(path, "utf8"));

const isObject = (value: unknown): value is Record<string, any> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Strategic merge: maps merge key by key, null deletes, keyed lists merge by their key with the patch's items first. */
export function strategicMerge(base: unknown, patch: unknown, field = ""): unknown {
  if (isObject(base) && isObject(patch)) {
    const merged: Record<string, any> = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else merged[key] = strategicMerge(base[key], value, key);
    }
    return merged;
  }
  const key = MERGE_KEYS[field];
  if (key && Array.isArray(base) && Array.isArray(patch)) {
    const patched = patch.map((item) =>
      strategicMerge(
        base.find((b) => b[key] === item[key]),
        item,
        "",
      ),
    );
    return [...patched, ...base.filter((b) => !patch.some((p) => p[key] === b[key]))];
  }
  return patch;
}

export function parseKustomization(dir: string): K8sObject[] {
  const kustomization = documents(join(dir, "kustomization.yaml"))[0] as Record<string, any>;
  const unknown = Object.keys(kustomization).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length > 0) throw new Error(`${dir}/kustomization.yaml: ${unknown.join(", ")} not rendered without kubectl`);
  let objects: K8sObject[] = (kustomization.resources ?? []).flatMap((resource: string) => {
    const path = join(dir, resource);
    return statSync(path).isDirectory() ? parseKustomization(path) : documents(path);
  });
  for (const generator of kustomization.configMapGenerator ?? []) {
    const data = Object.fromEntries((generator.files as string[]).map((file) => [basename(file), readFileSync(join(dir, file), "utf8")]));
    objects.push({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: generator.name }, data });
  }
  for (const { path } of kustomization.patches ?? []) {
    const patch = documents(join(dir, path))[0]!;
    const target = (o: K8sObject) => o.kind === patch.kind && o.metadata.name === patch.metadata.name;
    if (!objects.some(target)) throw new Error(`${dir}/${path}: no ${patch.kind} ${patch.metadata.name} to patch`);
    objects = patch.$patch === "delete" ? objects.filter((o) => !target(o)) : objects.map((o) => (target(o) ? (strategicMerge(o, patch) as K8sObject) : o));
  }
  return objects;
}

/** `kubectl kustomize DIR`, or undefined where kubectl is not installed. */
export function kubectlKustomize(dir: string): K8sObject[] | undefined {
  const kubectl = Bun.which("kubectl");
  if (!kubectl) return undefined;
  const proc = Bun.spawnSync([kubectl, "kustomize", dir]);
  if (proc.exitCode !== 0) throw new Error(`kubectl kustomize ${dir}: ${proc.stderr.toString()}`);
  return parseDocuments(proc.stdout.toString());
}
