import { join } from 'node:path';
import ts from 'typescript';

/** A parsed manifest, with where it came from for the error messages. */
export interface Manifest {
  file: string;
  object: { apiVersion?: string; kind?: string; metadata?: { name?: string } } & Record<string, unknown>;
}

/**
 * The kubernetes-models module of each kind the manifests use, keyed by apiVersion and kind. Its class checks
 * the JSON schema of the Kubernetes OpenAPI document, and its interface (I<kind>) is the same schema as a type.
 */
const MODELS: Record<string, string> = {
  'v1/ConfigMap': 'kubernetes-models/v1/ConfigMap',
  'v1/Service': 'kubernetes-models/v1/Service',
  'batch/v1/Job': 'kubernetes-models/batch/v1/Job',
  'apps/v1/Deployment': 'kubernetes-models/apps/v1/Deployment',
  'policy/v1/PodDisruptionBudget': 'kubernetes-models/policy/v1/PodDisruptionBudget',
  'networking.k8s.io/v1/NetworkPolicy': 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy',
  'autoscaling/v2/HorizontalPodAutoscaler': 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
  'keda.sh/v1alpha1/ScaledObject': '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject',
};

const label = ({ file, object }: Manifest): string => `${file} (${object.kind}/${object.metadata?.name})`;
const modelOf = ({ object }: Manifest): string | undefined => MODELS[`${object.apiVersion}/${object.kind}`];

// The Prometheus Operator's duration (its CRD's pattern) and the fields its CRD knows (monitoring.coreos.com/v1).
const DURATION = /^(0|(\d+y)?(\d+w)?(\d+d)?(\d+h)?(\d+m)?(\d+s)?(\d+ms)?)$/;
const PROMETHEUS_RULE_FIELDS = {
  manifest: ['apiVersion', 'kind', 'metadata', 'spec'],
  metadata: ['name', 'namespace', 'labels', 'annotations'],
  spec: ['groups'],
  group: ['name', 'interval', 'limit', 'partial_response_strategy', 'query_offset', 'labels', 'rules'],
  rule: ['alert', 'record', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations'],
};

/**
 * A PrometheusRule, whose CRD kubernetes-models has no schema for, checked by hand as the CRD does and as strictly as
 * the other kinds: unknown fields at any depth, the required ones, strings where strings go and durations.
 */
function prometheusRuleErrors(object: Manifest['object']): string[] {
  const errors: string[] = [];
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const fields = (where: string, value: unknown, known: string[], required: string[]): value is Record<string, unknown> => {
    if (!isObject(value)) {
      errors.push(`${where} must be an object`);
      return false;
    }
    for (const key of Object.keys(value).filter((name) => !known.includes(name))) errors.push(`${where} has an unknown field ${key}`);
    for (const key of required.filter((name) => value[name] === undefined)) errors.push(`${where} lacks ${key}`);
    return true;
  };
  const strings = (where: string, value: unknown) => {
    if (value === undefined) return;
    if (!isObject(value) || Object.values(value).some((entry) => typeof entry !== 'string')) errors.push(`${where} must map names to strings`);
  };
  fields('the manifest', object, PROMETHEUS_RULE_FIELDS.manifest, ['metadata', 'spec']);
  const { metadata, spec } = object as Record<string, unknown>;
  if (fields('metadata', metadata, PROMETHEUS_RULE_FIELDS.metadata, ['name'])) strings('metadata.labels', metadata.labels);
  if (!fields('spec', spec, PROMETHEUS_RULE_FIELDS.spec, ['groups'])) return errors;
  const groups = Array.isArray(spec.groups) ? (spec.groups as unknown[]) : [];
  if (groups.length === 0) errors.push('spec.groups must be a list of groups');
  groups.forEach((group, index) => {
    const where = `spec.groups[${index}]`;
    if (!fields(where, group, PROMETHEUS_RULE_FIELDS.group, ['name', 'rules'])) return;
    const rules = Array.isArray(group.rules) ? (group.rules as unknown[]) : [];
    if (rules.length === 0) errors.push(`${where}.rules must be a list of rules`);
    rules.forEach((rule, ruleIndex) => {
      const at = `${where}.rules[${ruleIndex}]`;
      if (!fields(at, rule, PROMETHEUS_RULE_FIELDS.rule, ['expr'])) return;
      if ((typeof rule.alert === 'string') === (typeof rule.record === 'string')) errors.push(`${at} must have a string alert or record, not both`);
      if (typeof rule.expr !== 'string' || rule.expr.trim() === '') errors.push(`${at}.expr must be a PromQL string`);
      for (const key of ['for', 'keep_firing_for'])
        if (rule[key] !== undefined && !(typeof rule[key] === 'string' && DURATION.test(rule[key]))) errors.push(`${at}.${key} must be a duration`);
      strings(`${at}.labels`, rule.labels);
      strings(`${at}.annotations`, rule.annotations);
    });
  });
  return errors;
}

/** The schema's own check: required fields, types, formats and enumerations, but not unknown fields. */
async function schemaErrors(manifest: Manifest): Promise<string[]> {
  if (`${manifest.object.apiVersion}/${manifest.object.kind}` === 'monitoring.coreos.com/v1/PrometheusRule') {
    return prometheusRuleErrors(manifest.object).map((error) => `${label(manifest)}: ${error}`);
  }
  const specifier = modelOf(manifest);
  if (!specifier) return [`${label(manifest)}: no schema for ${manifest.object.apiVersion} ${manifest.object.kind}`];
  const Model = (await import(specifier))[manifest.object.kind as string] as new (data: object) => { validate(): void };
  try {
    new Model(manifest.object).validate();
    return [];
  } catch (error) {
    return [`${label(manifest)}: ${(error as Error).message}`];
  }
}

/**
 * The schemas of kubernetes-models accept unknown fields (as the API server does without strict validation),
 * so each manifest is also type-checked as an object literal of the kind's interface: TypeScript's excess
 * property check rejects an unknown field at any depth, as `kubectl apply --validate=strict` would.
 */
function typeErrors(manifests: Manifest[]): string[] {
  const sources = new Map(
    manifests.flatMap((manifest, index) => {
      const specifier = modelOf(manifest);
      if (!specifier) return [];
      const text = `import type { I${manifest.object.kind} } from '${specifier}';\nexport const manifest: I${manifest.object.kind} = ${JSON.stringify(manifest.object, null, 2)};\n`;
      return [[join(__dirname, `manifest-check-${index}.mts`), { manifest, text }] as const];
    }),
  );
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const [getSourceFile, fileExists, readFile] = [host.getSourceFile.bind(host), host.fileExists.bind(host), host.readFile.bind(host)];
  host.fileExists = (path) => sources.has(path) || fileExists(path);
  host.readFile = (path) => sources.get(path)?.text ?? readFile(path);
  host.getSourceFile = (path, version, ...rest) => {
    const source = sources.get(path);
    return source ? ts.createSourceFile(path, source.text, version) : getSourceFile(path, version, ...rest);
  };
  const program = ts.createProgram([...sources.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const source = diagnostic.file && sources.get(diagnostic.file.fileName);
    const where = source ? label(source.manifest) : (diagnostic.file?.fileName ?? 'compiler');
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

/** Every way the manifests break the Kubernetes schemas, one line each; empty when all are valid. */
export async function validateManifests(manifests: Manifest[]): Promise<string[]> {
  const schema = await Promise.all(manifests.map(schemaErrors));
  return [...schema.flat(), ...typeErrors(manifests)];
}
