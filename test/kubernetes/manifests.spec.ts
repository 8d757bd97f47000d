import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { EnvironmentVariables } from '../../src/config/env.schema';
import { describeApiProductionProblems } from '../../src/config/production-secrets';
import { Manifest, validateManifests } from './kubernetes-schemas';

const repository = join(__dirname, '..', '..');
const kubernetes = join(repository, 'deploy', 'kubernetes');
const kedaOverlay = join(repository, 'deploy', 'kubernetes-keda');
const prometheusOverlay = join(repository, 'deploy', 'kubernetes-prometheus');
const overlays = [kubernetes, kedaOverlay, prometheusOverlay];
const defaults = new EnvironmentVariables();

// Only the fields these assertions read; the schemas check the rest.
interface Probe {
  httpGet: { path: string; port: number | string };
}
interface Container {
  name: string;
  command: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  containers: Container[];
}
interface Workload {
  kind: string;
  metadata: { name: string };
  spec: { template: { metadata: { annotations: Record<string, string> }; spec: PodSpec } };
}

function yamlFilesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return yamlFilesUnder(path);
    return entry.name.endsWith('.yaml') ? [path] : [];
  });
}

function readYaml(path: string): unknown[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((document) => {
    if (document.errors.length > 0) throw new Error(`${path}: ${document.errors[0].message}`);
    return document.toJS();
  });
}

const isKustomization = (path: string): boolean => path.endsWith('kustomization.yaml');
const manifestFiles = overlays.flatMap(yamlFilesUnder).filter((path) => !isKustomization(path));
const manifests: Manifest[] = manifestFiles.flatMap((path) =>
  readYaml(path).map((object) => ({ file: relative(repository, path), object: object as Manifest['object'] })),
);
const ofKind = <T>(kind: string): T[] => manifests.filter(({ object }) => object.kind === kind).map(({ object }) => object as T);
const deployment = (name: string): Workload => {
  const found = ofKind<Workload>('Deployment').find((object) => object.metadata.name === name);
  if (!found) throw new Error(`no Deployment ${name}`);
  return found;
};
const [configMap] = ofKind<{ metadata: { name: string }; data: Record<string, string> }>('ConfigMap');
const [migrationJob] = ofKind<Workload>('Job');
const [scaledObject] = ofKind<{ spec: { scaleTargetRef: { name: string }; triggers: { type: string; metadata: Record<string, string> }[] } }>(
  'ScaledObject',
);
const workloads = [...ofKind<Workload>('Deployment'), migrationJob];

/** A setting as the pods see it: the container's own value, else the ConfigMap's, else the code's default. */
function settingOf(container: Container, name: keyof EnvironmentVariables): string {
  const own = container.env?.find((variable) => variable.name === name)?.value;
  const fromConfigMap = container.envFrom?.some((source) => source.configMapRef?.name === configMap.metadata.name) ? configMap.data[name] : undefined;
  return own ?? fromConfigMap ?? String(defaults[name]);
}

function portOf(container: Container, port: number | string): number | undefined {
  return typeof port === 'number' ? port : container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

describe('the Kubernetes manifests (deploy/kubernetes, deploy/kubernetes-keda, deploy/kubernetes-prometheus)', () => {
  it('all validate against the Kubernetes schemas, the KEDA ScaledObject and the PrometheusRule included', async () => {
    expect(manifests.map(({ object }) => `${object.kind}/${object.metadata?.name}`).sort()).toEqual([
      'ConfigMap/lvs-config',
      'Deployment/lvs-api',
      'Deployment/lvs-worker',
      'HorizontalPodAutoscaler/lvs-api',
      'Job/lvs-migrations',
      'NetworkPolicy/lvs-datastores',
      'PodDisruptionBudget/lvs-api',
      'PodDisruptionBudget/lvs-worker',
      'PrometheusRule/lvs-alerts',
      'ScaledObject/lvs-worker',
      'Service/lvs-api',
      'Service/lvs-worker',
    ]);
    await expect(validateManifests(manifests)).resolves.toEqual([]);
  });

  describe('the validation itself', () => {
    /** A copy of the first manifest of a kind, with value set at path. */
    const mutated = (kind: string, path: (string | number)[], value: unknown): Manifest => {
      const original = manifests.find(({ object }) => object.kind === kind) as Manifest;
      const object = structuredClone(original.object);
      type Node = Record<string | number, unknown>;
      const parent = path.slice(0, -1).reduce<Node>((node, key) => node[key] as Node, object);
      parent[path[path.length - 1]] = value;
      return { file: original.file, object };
    };

    it("fails on an unknown field deep inside a manifest, a CRD's included", async () => {
      const deploymentTypo = mutated('Deployment', ['spec', 'template', 'spec', 'containers', 0, 'imagePullPolcy'], 'Always');
      const scaledObjectTypo = mutated('ScaledObject', ['spec', 'maxReplicas'], 8);
      await expect(validateManifests([deploymentTypo, scaledObjectTypo])).resolves.toEqual([
        'deploy/kubernetes/api-deployment.yaml (Deployment/lvs-api): Object literal may only specify known properties, ' +
          `and '"imagePullPolcy"' does not exist in type 'IContainer'.`,
        'deploy/kubernetes-keda/worker-scaledobject.yaml (ScaledObject/lvs-worker): Object literal may only specify known properties, ' +
          `and '"maxReplicas"' does not exist in type 'IScaledObjectSpec'.`,
      ]);
    });

    it('fails on a wrong type, in the schema and in the type check', async () => {
      const wrongType = mutated('Deployment', ['spec', 'template', 'spec', 'terminationGracePeriodSeconds'], '30');
      await expect(validateManifests([wrongType])).resolves.toEqual([
        'deploy/kubernetes/api-deployment.yaml (Deployment/lvs-api): data/spec/template/spec/terminationGracePeriodSeconds must be integer',
        "deploy/kubernetes/api-deployment.yaml (Deployment/lvs-api): Type 'string' is not assignable to type 'number'.",
      ]);
    });

    it('checks the PrometheusRule by hand as strictly: unknown fields, missing ones, strings and durations', async () => {
      const rule = manifests.find(({ object }) => object.kind === 'PrometheusRule') as Manifest;
      const broken = structuredClone(rule.object) as unknown as { spec: { groups: { rules: Record<string, unknown>[] }[]; extra?: 1 } };
      const [first, second] = broken.spec.groups[0].rules;
      first.severity = 'page';
      first.for = '2 minutes';
      delete second.expr;
      second.annotations = { runbook_url: 1 };
      broken.spec.extra = 1;
      const at = 'deploy/kubernetes-prometheus/prometheus-rule.yaml (PrometheusRule/lvs-alerts):';
      await expect(validateManifests([{ file: rule.file, object: broken }])).resolves.toEqual([
        `${at} spec has an unknown field extra`,
        `${at} spec.groups[0].rules[0] has an unknown field severity`,
        `${at} spec.groups[0].rules[0].for must be a duration`,
        `${at} spec.groups[0].rules[1] lacks expr`,
        `${at} spec.groups[0].rules[1].expr must be a PromQL string`,
        `${at} spec.groups[0].rules[1].annotations must map names to strings`,
      ]);
    });

    it('fails on a kind it has no schema for', async () => {
      const errors = await validateManifests([{ file: 'x.yaml', object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } } }]);
      expect(errors).toEqual(['x.yaml (Secret/s): no schema for v1 Secret']);
    });
  });

  it('list every manifest in a kustomization of one namespace, and every file a kustomization names exists', () => {
    const kustomizations = overlays.map((directory) => {
      const [kustomization] = readYaml(join(directory, 'kustomization.yaml')) as { namespace: string; resources: string[] }[];
      return { directory, ...kustomization };
    });
    const listed = kustomizations.flatMap(({ directory, resources }) => resources.map((resource) => join(directory, resource)));
    for (const path of listed) expect(existsSync(path)).toBe(true);
    expect(listed.filter((path) => path.endsWith('.yaml')).sort()).toEqual([...manifestFiles].sort());
    // The ScaledObject needs KEDA's CRDs, so only the optional overlay, which includes the base, names it. It is
    // the base's sibling: kustomize refuses an overlay inside its base.
    expect(listed).toContain(kubernetes);
    // a namespace applies only to a kustomization's own resources, so the overlay names it too
    expect(kustomizations.map(({ namespace }) => namespace)).toEqual(['licence-verification', 'licence-verification', 'licence-verification']);
  });

  it('run the migrations in a Job, and not at the start of the API or the workers', () => {
    const [container] = migrationJob.spec.template.spec.containers;
    expect(container.command).toEqual(['npm', 'run', 'migration:run']);
    const scripts = (JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['migration:run']).toBe('node dist/src/cli/migrate.cli.js');
    for (const name of ['lvs-api', 'lvs-worker']) {
      expect(settingOf(deployment(name).spec.template.spec.containers[0], 'MIGRATIONS_RUN')).toBe('false');
    }
  });

  it.each([
    ['lvs-api', 'start:api', 'OPERATOR_PORT', 9100],
    ['lvs-worker', 'start:worker', 'WORKER_HTTP_PORT', defaults.WORKER_HTTP_PORT],
  ] as const)('%s runs `npm run %s` with liveness and readiness probes on its %s (%d)', (name, script, portSetting, expectedPort) => {
    const [container, ...others] = deployment(name).spec.template.spec.containers;
    expect(others).toEqual([]);
    expect(container.command).toEqual(['npm', 'run', script]);
    const port = Number(settingOf(container, portSetting));
    expect(port).toBe(expectedPort);
    expect(container.livenessProbe?.httpGet.path).toBe('/health/live');
    expect(portOf(container, container.livenessProbe?.httpGet.port ?? '')).toBe(port);
    expect(container.readinessProbe?.httpGet.path).toBe('/health/ready');
    expect(portOf(container, container.readinessProbe?.httpGet.port ?? '')).toBe(port);
  });

  it("give the API the settings production requires of it, under the image's NODE_ENV=production: OPERATOR_PORT and an https PUBLIC_BASE_URL", () => {
    const [container] = deployment('lvs-api').spec.template.spec.containers;
    const settings = {
      NODE_ENV: 'production',
      OPERATOR_PORT: Number(settingOf(container, 'OPERATOR_PORT')),
      PUBLIC_BASE_URL: settingOf(container, 'PUBLIC_BASE_URL'),
    };
    expect(settings.PUBLIC_BASE_URL).toBe('https://lvs.example.com');
    expect(describeApiProductionProblems(settings)).toEqual([]);
  });

  it("probes and scrapes the API on its operators' port, named operator, which the partners' Service does not route to", () => {
    const pod = deployment('lvs-api').spec.template;
    const [container] = pod.spec.containers;
    const operatorPort = Number(settingOf(container, 'OPERATOR_PORT'));
    expect(container.ports).toEqual([
      { name: 'http', containerPort: Number(settingOf(container, 'PORT')) },
      { name: 'operator', containerPort: operatorPort },
    ]);
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) expect(probe?.httpGet.port).toBe('operator');
    expect(pod.metadata.annotations['prometheus.io/port']).toBe(String(operatorPort));
    const service = ofKind<{ metadata: { name: string }; spec: { ports: { targetPort: string }[] } }>('Service').find(
      (candidate) => candidate.metadata.name === 'lvs-api',
    );
    expect(service?.spec.ports.map((port) => port.targetPort)).toEqual(['http']);
  });

  it('believe X-Forwarded-For only from the ingress controller, named address by address, never from a range such as the pod network', () => {
    const [container] = deployment('lvs-api').spec.template.spec.containers;
    const entries = String(settingOf(container, 'TRUST_PROXY')).split(',');
    expect(entries).toEqual(['10.244.0.10']);
    for (const entry of entries) expect([entry, isIP(entry)]).toEqual([entry, 4]);
  });

  describe('the NetworkPolicy of the datastores', () => {
    interface Selector {
      matchExpressions: { key: string; operator: string; values: string[] }[];
    }
    interface NetworkPolicy {
      spec: { podSelector: Selector; policyTypes: string[]; ingress: { from: { podSelector: Selector }[]; ports: { port: number }[] }[] };
    }
    const [policy] = ofKind<NetworkPolicy>('NetworkPolicy');
    /** Whether a pod with these labels is selected, as Kubernetes matches In expressions (every one must hold). */
    const selects = (selector: Selector, labels: Record<string, string>) =>
      selector.matchExpressions.every(({ key, operator, values }) => operator === 'In' && values.includes(labels[key]));
    const podLabels = (workload: Workload) => (workload.spec.template.metadata as unknown as { labels: Record<string, string> }).labels;

    it('selects PostgreSQL and Redis pods, and none of the service', () => {
      expect(policy.spec.policyTypes).toEqual(['Ingress']);
      expect(selects(policy.spec.podSelector, { 'app.kubernetes.io/component': 'postgresql' })).toBe(true);
      expect(selects(policy.spec.podSelector, { 'app.kubernetes.io/component': 'redis' })).toBe(true);
      for (const workload of workloads)
        expect([workload.metadata.name, selects(policy.spec.podSelector, podLabels(workload))]).toEqual([workload.metadata.name, false]);
    });

    it('lets in only the API, the workers and the migration Job, on the PostgreSQL and Redis ports', () => {
      const [rule, ...others] = policy.spec.ingress;
      expect(others).toEqual([]);
      expect(rule.ports.map(({ port }) => port)).toEqual([5432, 6379]);
      const [from, ...otherSources] = rule.from;
      expect(otherSources).toEqual([]);
      expect(workloads.map((workload) => [workload.metadata.name, selects(from.podSelector, podLabels(workload))])).toEqual([
        ['lvs-api', true],
        ['lvs-worker', true],
        ['lvs-migrations', true],
      ]);
      // Another pod of the namespace, or one that only claims to be part of the service, is not let in.
      expect(selects(from.podSelector, { 'app.kubernetes.io/name': 'licence-verification', 'app.kubernetes.io/component': 'sandbox' })).toBe(false);
      expect(selects(from.podSelector, { 'app.kubernetes.io/name': 'other', 'app.kubernetes.io/component': 'api' })).toBe(false);
    });
  });

  it.each(['lvs-api', 'lvs-worker'])('%s is given more time to stop than its preStop and SHUTDOWN_GRACE_MS take', (name) => {
    const pod = deployment(name).spec.template.spec;
    const [container] = pod.containers;
    const preStop = container.lifecycle?.preStop?.exec?.command;
    const preStopSeconds = preStop ? Number(preStop[1]) : 0;
    expect(preStop === undefined || (preStop[0] === 'sleep' && preStopSeconds > 0)).toBe(true);
    const graceSeconds = Number(settingOf(container, 'SHUTDOWN_GRACE_MS')) / 1000;
    expect(graceSeconds).toBe(defaults.SHUTDOWN_GRACE_MS / 1000);
    // the kubelet's countdown starts with preStop, and a few seconds more cover closing the pools
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStopSeconds + graceSeconds + 5);
  });

  it('give every container memory and CPU requests and limits, the memory request at 192 MiB', () => {
    for (const workload of workloads) {
      for (const container of workload.spec.template.spec.containers) {
        expect([workload.metadata.name, container.resources]).toEqual([
          workload.metadata.name,
          {
            requests: { cpu: expect.any(String), memory: '192Mi' },
            limits: { cpu: expect.any(String), memory: expect.any(String) },
          },
        ]);
      }
    }
  });

  it('only reference the Secret the operator creates, never define one', () => {
    expect(manifests.filter(({ object }) => object.kind === 'Secret')).toEqual([]);
    const references = workloads.flatMap((workload) =>
      workload.spec.template.spec.containers.flatMap((container) =>
        (container.env ?? []).flatMap(({ name, valueFrom }) =>
          valueFrom?.secretKeyRef ? [{ variable: name, secret: valueFrom.secretKeyRef.name, key: valueFrom.secretKeyRef.key }] : [],
        ),
      ),
    );
    for (const { variable, secret, key } of references) expect([secret, key]).toEqual(['lvs-secrets', variable]);
    const secretNames = [
      'DATABASE_URL',
      'DATABASE_MIGRATION_URL',
      'REDIS_URL',
      'WEBHOOK_SECRET_KEY',
      'WEBHOOK_SECRET_KEYS',
      'HOLDER_DATA_KEY',
      'HOLDER_DATA_KEYS',
      'RECEIPT_SIGNING_KEYS',
      'ADMIN_TOKEN',
    ];
    expect(new Set(references.map(({ variable }) => variable))).toEqual(new Set(secretNames));
    for (const secretName of secretNames) {
      expect(Object.keys(configMap.data)).not.toContain(secretName);
    }
  });

  it('give the migration Job the direct database connection, when the Secret holds one', () => {
    const [container] = migrationJob.spec.template.spec.containers;
    expect(container.env?.find(({ name }) => name === 'DATABASE_MIGRATION_URL')?.valueFrom?.secretKeyRef).toEqual({
      name: 'lvs-secrets',
      key: 'DATABASE_MIGRATION_URL',
      optional: true,
    });
  });

  it('carry the alert rules of deploy/prometheus/rules.yml, unchanged, as a PrometheusRule of the optional overlay', () => {
    const [rule, ...others] = ofKind<{ metadata: { name: string; labels: Record<string, string> }; spec: { groups: unknown[] } }>('PrometheusRule');
    expect(others).toEqual([]);
    const [rules] = readYaml(join(repository, 'deploy', 'prometheus', 'rules.yml')) as { groups: unknown[] }[];
    expect(rule.spec.groups).toEqual(rules.groups);
    expect(rule.metadata).toEqual({ name: 'lvs-alerts', labels: { release: 'prometheus' } });
    // the base needs no Prometheus Operator: only the overlay names the rule
    const [base] = readYaml(join(kubernetes, 'kustomization.yaml')) as { resources: string[] }[];
    expect(base.resources.some((resource) => resource.includes('prometheus'))).toBe(false);
  });

  it('scale the workers with KEDA on the exported lookup queue gauge, one worker per WORKER_CONCURRENCY jobs', () => {
    expect(scaledObject.spec.scaleTargetRef.name).toBe(deployment('lvs-worker').metadata.name);
    const [trigger, ...others] = scaledObject.spec.triggers;
    expect(others).toEqual([]);
    expect(trigger.type).toBe('prometheus');
    expect(trigger.metadata.query).toBe(
      'max(lvs_lookup_queue_jobs{state="waiting"}) + max(lvs_lookup_queue_jobs{state="prioritized"}) + max(lvs_lookup_queue_jobs{state="delayed"}) + max(lvs_lookup_queue_jobs{state="active"})',
    );
    const metricsSource = readFileSync(join(repository, 'src', 'metrics', 'metrics.ts'), 'utf8');
    expect(metricsSource).toContain("name: 'lvs_lookup_queue_jobs'");
    expect(metricsSource).toContain("const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;");
    expect(Number(trigger.metadata.threshold)).toBe(defaults.WORKER_CONCURRENCY);
  });
});
