// Renders deploy/ with kustomize and judges it with outside tools (kubernetes-validate, kube-score) and with the
// rules this platform needs that those tools do not know (see `platformRuleViolations`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** DEPLOY_DIR judges another copy of deploy/ (e.g. an older commit's, to see what it scored). */
export const deployDir = path.resolve(process.env.DEPLOY_DIR ?? path.join(repoRoot, 'deploy'));
/** Kubernetes versions the manifests must validate against: the oldest supported and the newest known. */
export const KUBERNETES_VERSIONS = ['1.30', '1.37'];
/** kube-score's optional tests this platform also holds to (requests = limits ones are not: pods burst). */
export const KUBE_SCORE_OPTIONAL_TESTS = ['container-seccomp-profile', 'container-ports-check'];

/**
 * Installs (first time) and locates the tools; kubeScore is null where Go is not available to build it. Null
 * altogether where there is no Python to install them with.
 */
export function tools() {
  const run = spawnSync('bash', [path.join(repoRoot, 'tools/deploy-check/scripts/install-tools.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 15 * 60_000,
  });
  if (run.status === 3) return null;
  if (run.status !== 0) throw new Error(`install-tools.sh failed (${run.status ?? run.signal})`);
  const bin = run.stdout.trim();
  const kubeScore = path.join(bin, 'kube-score');
  return {
    kubectl: path.join(bin, 'kubectl'),
    kubernetesValidate: path.join(bin, 'kubernetes-validate'),
    python: path.join(bin, 'python'),
    kubeScore: existsSync(kubeScore) ? kubeScore : null,
  };
}

export function overlays() {
  const dir = path.join(deployDir, 'overlays');
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, 'kustomization.yaml')))
    .sort();
}

/** `kubectl kustomize` of one overlay: the YAML, the file it was written to, and its objects. */
export function render(t, overlay) {
  const yaml = execFileSync(t.kubectl, ['kustomize', path.join(deployDir, 'overlays', overlay)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const file = path.join(mkdtempSync(path.join(tmpdir(), `deploy-${overlay}-`)), 'rendered.yaml');
  writeFileSync(file, yaml);
  const json = execFileSync(t.python, ['-c', 'import sys, json, yaml; json.dump([d for d in yaml.safe_load_all(sys.stdin) if d], sys.stdout)'], {
    input: yaml,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return { yaml, file, objects: JSON.parse(json) };
}

/** kubernetes-validate --strict (unknown fields are errors) against one Kubernetes version. */
export function validateSchemas(t, file, version) {
  const run = spawnSync(t.kubernetesValidate, ['--strict', '--quiet', '-k', version, file], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}`.trim() };
}

/** kube-score with its default tests plus KUBE_SCORE_OPTIONAL_TESTS: the CRITICAL and WARNING lines. */
export function kubeScore(t, file) {
  const args = ['score', '--output-format', 'ci', ...KUBE_SCORE_OPTIONAL_TESTS.flatMap((test) => ['--enable-optional-test', test]), file];
  const run = spawnSync(t.kubeScore, args, { encoding: 'utf8' });
  const lines = run.stdout.split('\n');
  return {
    critical: lines.filter((line) => line.startsWith('[CRITICAL]')),
    warning: lines.filter((line) => line.startsWith('[WARNING]')),
    output: `${run.stdout}${run.stderr}`,
  };
}

const APPS = {
  api: { portVariable: 'API_PORT', publicUrl: 'PUBLIC_BASE_URL', autoscaled: true },
  'webhook-dispatcher': { portVariable: 'DISPATCHER_PORT', publicUrl: 'PORTAL_BASE_URL', autoscaled: true },
  'delinquency-scheduler': { portVariable: 'SCHEDULER_PORT', publicUrl: null, autoscaled: false },
};

const matches = (selector, labels) =>
  Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels?.[key] === value) &&
  (selector?.matchExpressions ?? []).every((e) =>
    e.operator === 'In' ? e.values.includes(labels?.[e.key]) : e.operator === 'Exists' ? e.key in (labels ?? {}) : true,
  );
const tagOf = (image) => (/^[^@]+:([^:/@]+)$/.exec(image ?? '') ?? [])[1];
const portsOf = (rule) => (rule.ports ?? []).map((p) => p.port);

/** The app's own port and image from its Dockerfile (EXPOSE, the CMD's dist/main.js). */
function dockerfile(app) {
  const text = readFileSync(path.join(repoRoot, 'apps', app, 'Dockerfile'), 'utf8');
  return { port: Number(/^EXPOSE (\d+)/m.exec(text)?.[1]), portEnv: new RegExp(`${APPS[app].portVariable}=(\\d+)`).exec(text)?.[1] };
}

/**
 * What production needs beyond the schemas and kube-score's defaults, as a list of violations (empty = fine).
 * Pod security (non-root, no privilege escalation, read-only root with a /tmp emptyDir, ALL capabilities dropped,
 * RuntimeDefault seccomp), tagged images, resources, probes on the apps' real health routes and ports, topology
 * spread, PDBs, HPAs (not for the scheduler, bounded by Kafka partitions for the dispatcher), default-deny network
 * policies with what each app needs, Ingress for both public hosts, and a release-named migrate Job the
 * Deployments wait for.
 */
export function platformRuleViolations(objects) {
  const problems = [];
  const fail = (what, message) => problems.push(`${what}: ${message}`);
  const of = (kind) => objects.filter((o) => o.kind === kind);
  const config = Object.assign({}, ...of('ConfigMap').map((c) => c.data ?? {}));
  const workloads = [...of('Deployment'), ...of('Job')];

  for (const w of workloads) {
    const what = `${w.kind}/${w.metadata.name}`;
    const pod = w.spec.template.spec;
    const podSec = pod.securityContext ?? {};
    if (podSec.runAsNonRoot !== true) fail(what, 'pod securityContext.runAsNonRoot is not true');
    if (podSec.seccompProfile?.type !== 'RuntimeDefault') fail(what, 'pod seccompProfile is not RuntimeDefault');
    if (pod.automountServiceAccountToken !== false) fail(what, 'mounts a service account token it does not need');
    for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
      const cwhat = `${what} container ${c.name}`;
      const sec = c.securityContext ?? {};
      if (sec.allowPrivilegeEscalation !== false) fail(cwhat, 'allowPrivilegeEscalation is not false');
      if (sec.readOnlyRootFilesystem !== true) fail(cwhat, 'readOnlyRootFilesystem is not true');
      if (sec.privileged === true) fail(cwhat, 'privileged');
      if (!(sec.capabilities?.drop ?? []).includes('ALL')) fail(cwhat, 'capabilities do not drop ALL');
      if ((sec.capabilities?.add ?? []).length > 0) fail(cwhat, 'adds capabilities');
      const tag = tagOf(c.image);
      if (!tag || tag === 'latest') fail(cwhat, `image ${c.image} has no explicit, non-latest tag`);
      for (const kind of ['requests', 'limits']) {
        for (const resource of ['cpu', 'memory', 'ephemeral-storage']) {
          if (!c.resources?.[kind]?.[resource]) fail(cwhat, `no ${resource} ${kind.slice(0, -1)}`);
        }
      }
      if (sec.readOnlyRootFilesystem === true) {
        const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
        const volume = tmp && (pod.volumes ?? []).find((v) => v.name === tmp.name);
        if (!volume?.emptyDir) fail(cwhat, 'read-only root filesystem without an emptyDir at /tmp');
      }
    }
  }

  for (const d of of('Deployment')) {
    const name = d.metadata.name;
    const what = `Deployment/${name}`;
    const app = APPS[name];
    if (!app) {
      fail(what, 'not one of the three apps');
      continue;
    }
    const pod = d.spec.template.spec;
    const labels = d.spec.template.metadata.labels;
    const main = pod.containers.find((c) => c.name === name);
    if (!main) {
      fail(what, `no container named ${name}`);
      continue;
    }
    const { port, portEnv } = dockerfile(name);
    const http = (main.ports ?? []).find((p) => p.name === 'http');
    const envPort = (main.env ?? []).find((e) => e.name === app.portVariable)?.value;
    if (http?.containerPort !== port) fail(what, `container port ${http?.containerPort} is not the app's port ${port} (apps/${name}/Dockerfile)`);
    if (envPort !== undefined && Number(envPort) !== port) fail(what, `${app.portVariable}=${envPort} is not the container port ${port}`);
    if (portEnv !== undefined && Number(portEnv) !== port) fail(what, `Dockerfile ${app.portVariable} ${portEnv} disagrees with its EXPOSE ${port}`);
    const probe = (p, route) => (p?.httpGet?.path === route && (p.httpGet.port === 'http' || p.httpGet.port === port) ? true : false);
    if (!probe(main.startupProbe, '/health/live')) fail(what, 'no startupProbe on /health/live');
    if (!probe(main.readinessProbe, '/health/ready')) fail(what, 'no readinessProbe on /health/ready');
    if (!probe(main.livenessProbe, '/health/live')) fail(what, 'no livenessProbe on /health/live');
    const startupSeconds = (main.startupProbe?.periodSeconds ?? 10) * (main.startupProbe?.failureThreshold ?? 3);
    if (startupSeconds < 120) fail(what, `startupProbe gives ${startupSeconds} s, less than the 2 minutes a start may wait for Kafka`);
    if (!(pod.topologySpreadConstraints ?? []).some((t) => t.topologyKey === 'topology.kubernetes.io/zone' && matches(t.labelSelector, labels)))
      fail(what, 'no topology spread across zones');
    if (!of('PodDisruptionBudget').some((p) => matches(p.spec.selector, labels))) fail(what, 'no PodDisruptionBudget');
    if (d.spec.strategy?.rollingUpdate?.maxUnavailable !== 0) fail(what, 'a rollout may take serving pods away (maxUnavailable is not 0)');

    const waits = (pod.initContainers ?? []).find((c) => c.name === 'wait-for-migrations');
    if (!waits) fail(what, 'no wait-for-migrations init container: pods may start before their migrations');
    else {
      if (waits.image !== main.image) fail(what, `wait-for-migrations runs ${waits.image}, not the app's image ${main.image}`);
      const script = (waits.command ?? []).find((arg) => arg.endsWith('.js'));
      if (!script || !existsSync(path.join(repoRoot, script))) fail(what, `wait-for-migrations runs ${script}, which is not in the repository (the image)`);
    }

    const hpa = of('HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === name);
    if (app.autoscaled) {
      if (!hpa) fail(what, 'no HorizontalPodAutoscaler');
      else if (hpa.spec.minReplicas < 2) fail(what, 'the HPA allows a single replica');
      if (d.spec.replicas !== undefined) fail(what, 'sets replicas although an HPA owns the count');
    } else {
      if (hpa) fail(what, 'autoscaled, although more replicas do not speed up a business-day run');
      if ((d.spec.replicas ?? 1) < 2) fail(what, 'fewer than 2 replicas');
    }
    if (name === 'webhook-dispatcher' && hpa) {
      const partitions = Number(config.KAFKA_TOPIC_PARTITIONS ?? 3);
      if (hpa.spec.maxReplicas > partitions)
        fail(what, `HPA maxReplicas ${hpa.spec.maxReplicas} exceeds the ${partitions} partitions (KAFKA_TOPIC_PARTITIONS)`);
    }

    // Network: default deny, then DNS, PostgreSQL, Kafka for every app; the public ones reachable on http.
    const policies = of('NetworkPolicy').filter((p) => matches(p.spec.podSelector, labels));
    const egressPorts = policies.flatMap((p) => (p.spec.egress ?? []).flatMap(portsOf));
    for (const [needed, why] of [
      [53, 'DNS'],
      [5432, 'PostgreSQL'],
      [9092, 'Kafka'],
    ]) {
      if (!egressPorts.includes(needed)) fail(what, `no egress to ${why} (${needed})`);
    }
    if (name === 'webhook-dispatcher' && !egressPorts.includes(443)) fail(what, 'no egress to webhook receivers on 443');
    const ingressPorts = policies.flatMap((p) => (p.spec.ingress ?? []).flatMap(portsOf));
    if (app.publicUrl && !ingressPorts.some((p) => p === 'http' || p === port)) fail(what, 'no ingress allowed to its http port');
    if (!app.publicUrl && ingressPorts.length > 0) fail(what, 'takes ingress although nothing calls it');

    if (app.publicUrl) {
      const host = config[app.publicUrl] ? new URL(config[app.publicUrl]).hostname : undefined;
      if (!host) fail(what, `${app.publicUrl} is not set in the ConfigMap`);
      const service = of('Service').find((s) => matches({ matchLabels: s.spec.selector }, labels));
      const routed = of('Ingress').some((i) =>
        (i.spec.rules ?? []).some(
          (r) =>
            r.host === host &&
            (r.http?.paths ?? []).some((p) => p.backend?.service?.name === service?.metadata.name) &&
            (i.spec.tls ?? []).some((t) => (t.hosts ?? []).includes(host)),
        ),
      );
      if (!routed) fail(what, `no Ingress with TLS routes ${host} (${app.publicUrl}) to it`);
    }
  }

  const denyAll = of('NetworkPolicy').some(
    (p) =>
      Object.keys(p.spec.podSelector ?? {}).length === 0 &&
      ['Ingress', 'Egress'].every((t) => p.spec.policyTypes?.includes(t)) &&
      !(p.spec.ingress ?? []).length &&
      !(p.spec.egress ?? []).length,
  );
  if (!denyAll) fail('NetworkPolicy', 'no default deny of ingress and egress for the namespace');

  const jobs = of('Job');
  if (jobs.length !== 1) fail('Job', `expected the one migrate Job, found ${jobs.length}`);
  for (const job of jobs) {
    const what = `Job/${job.metadata.name}`;
    if (job.spec.ttlSecondsAfterFinished === undefined) fail(what, 'no ttlSecondsAfterFinished');
    if ((job.spec.parallelism ?? 1) !== 1) fail(what, 'migrations may run twice at once');
    const api = of('Deployment')
      .find((d) => d.metadata.name === 'api')
      ?.spec.template.spec.containers.find((c) => c.name === 'api');
    const migrate = job.spec.template.spec.containers[0];
    if (api && migrate.image !== api.image) fail(what, `migrates with ${migrate.image}, not the api's ${api.image}`);
    const expected = `db-migrate-${tagOf(migrate.image)}`;
    if (job.metadata.name !== expected) fail(what, `not named after the release (${expected}): a new release could not create its Job`);
  }
  return problems;
}
