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

/** The schema's own check: required fields, types, formats and enumerations, but not unknown fields. */
async function schemaErrors(manifest: Manifest): Promise<string[]> {
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
