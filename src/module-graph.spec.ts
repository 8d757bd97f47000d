import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import { AppModule } from './app.module';
import { validateEnvironment } from './config/env.schema';
import { WorkerModule } from './worker.module';

type ModuleEntry = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/** Our own module classes: every class exported by a *.module.ts file under src/; a library's modules are not ours to check. */
async function ourModules(): Promise<Set<unknown>> {
  const files = readdirSync(__dirname, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.module.ts'));
  const exported = await Promise.all(files.map(async (file) => Object.values((await import(join(__dirname, file))) as Record<string, unknown>)));
  return new Set(exported.flat());
}

/** Every module a root reaches, static or dynamic, each visited once, and the classes that our modules provide. */
async function providedClasses(root: DynamicModule): Promise<Map<string, string[]>> {
  const byClass = new Map<string, string[]>();
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
      if (typeof token === 'function') byClass.set(token.name, [...(byClass.get(token.name) ?? []), name]);
    }
    const imports: ModuleEntry[] = [
      ...((Reflect.getMetadata('imports', moduleClass) as ModuleEntry[] | undefined) ?? []),
      ...('module' in module ? (module.imports ?? []) : []),
    ];
    for (const imported of imports) await visit(imported);
  };
  await visit(root);
  return byClass;
}

const settings = validateEnvironment({ NODE_ENV: 'test', DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/lvs', REDIS_URL: 'redis://127.0.0.1:6379' });

describe.each([
  ['the API', () => AppModule.forRoot(settings)],
  ['the worker', () => WorkerModule.forRoot(settings)],
])('the module graph of %s', (_root, build) => {
  it('provides each class in one module only, and no class in the root itself', async () => {
    const byClass = await providedClasses(build());
    const twice = [...byClass].filter(([, modules]) => modules.length > 1);
    expect(twice).toEqual([]);
    const inRoot = [...byClass].filter(([, modules]) => modules.some((module) => /^(AppModule|WorkerModule) /.test(module)));
    expect(inRoot).toEqual([]);
    expect(byClass.size).toBeGreaterThan(20);
  });
});
