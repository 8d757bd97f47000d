import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { AppModule } from './app.module';
import { validateEnvironment } from './config/env.schema';
import type { ScriptDefinition } from './redis/redis-script';
import { FEATURE_SCRIPTS_PREFIX } from './redis/redis-scripts.module';
import { scriptFiles } from '../test/support/redis-script-files';
import { WorkerModule } from './worker.module';

type ModuleEntry = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/** Our own module classes: every class exported by a *.module.ts file under src/; a library's modules are not ours to check. */
async function ourModules(): Promise<Set<unknown>> {
  const files = readdirSync(__dirname, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.module.ts'));
  const exported = await Promise.all(files.map(async (file) => Object.values((await import(join(__dirname, file))) as Record<string, unknown>)));
  return new Set(exported.flat());
}

/**
 * Every module a root reaches, static or dynamic, each visited once: the classes that our modules provide, and the
 * Redis scripts that features have defined (RedisScriptsModule.forFeature).
 */
async function moduleGraph(root: DynamicModule): Promise<{ byClass: Map<string, string[]>; scripts: Set<ScriptDefinition> }> {
  const byClass = new Map<string, string[]>();
  const scripts = new Set<ScriptDefinition>();
  const seen = new Set<unknown>();
  const ours = await ourModules();
  const visit = async (entry: ModuleEntry): Promise<void> => {
    const awaited = await entry;
    const module = 'forwardRef' in awaited ? (awaited.forwardRef() as Type) : awaited;
    if (seen.has(module)) return;
    seen.add(module);
    const moduleClass = 'module' in module ? module.module : module;
    const name = 'module' in module ? `${moduleClass.name} (dynamic)` : moduleClass.name;
    const providers: Provider[] = [
      ...((Reflect.getMetadata('providers', moduleClass) as Provider[] | undefined) ?? []),
      ...('module' in module ? (module.providers ?? []) : []),
    ];
    for (const provider of ours.has(moduleClass) ? providers : []) {
      const token = typeof provider === 'function' ? provider : provider.provide;
      if (typeof token === 'string' && token.startsWith(FEATURE_SCRIPTS_PREFIX) && 'useValue' in provider) {
        for (const script of provider.useValue as ScriptDefinition[]) scripts.add(script);
      }
      if (typeof token === 'function') byClass.set(token.name, [...(byClass.get(token.name) ?? []), name]);
    }
    const imports: ModuleEntry[] = [
      ...((Reflect.getMetadata('imports', moduleClass) as ModuleEntry[] | undefined) ?? []),
      ...('module' in module ? (module.imports ?? []) : []),
    ];
    for (const imported of imports) await visit(imported);
  };
  await visit(root);
  return { byClass, scripts };
}

const settings = validateEnvironment({ NODE_ENV: 'test', DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/lvs', REDIS_URL: 'redis://127.0.0.1:6379' });

describe.each([
  ['the API', () => AppModule.forRoot(settings)],
  ['the worker', () => WorkerModule.forRoot(settings)],
])('the module graph of %s', (_root, build) => {
  it('provides each class in one module only, and no class in the root itself', async () => {
    const { byClass } = await moduleGraph(build());
    const twice = [...byClass].filter(([, modules]) => modules.length > 1);
    expect(twice).toEqual([]);
    const inRoot = [...byClass].filter(([, modules]) => modules.some((module) => /^(AppModule|WorkerModule) /.test(module)));
    expect(inRoot).toEqual([]);
    expect(byClass.size).toBeGreaterThan(20);
  });
});

describe('the Redis scripts', () => {
  it("are each defined on the store client by the module of a feature that runs them, in the API's or the worker's graph", async () => {
    const defined = new Set<ScriptDefinition>();
    for (const root of [AppModule.forRoot(settings), WorkerModule.forRoot(settings)])
      for (const script of (await moduleGraph(root)).scripts) defined.add(script);
    const files = scriptFiles();
    expect(files.filter(({ script }) => !defined.has(script)).map(({ file, script }) => `${file}: ${script.name}`)).toEqual([]);
    expect(defined.size).toBe(files.length);
  });

  it('are named once each, under the one prefix', () => {
    const names = scriptFiles().map(({ script }) => script.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^lvs[A-Z][A-Za-z]+$/);
  });
});
