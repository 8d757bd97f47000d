import { DynamicModule, Module } from '@nestjs/common';
import { defineScripts, ScriptDefinition } from './redis-script';
import { RedisStore } from './redis-store';

/** The provider that holds a feature's scripts: found by the completeness spec in every root's module graph. */
export const FEATURE_SCRIPTS_PREFIX = 'redis-scripts:';

/**
 * How a feature has its Lua scripts defined on the store client: its module imports forFeature with the scripts it
 * keeps beside its code. They are defined as the module is made, before any of its providers can run one.
 */
@Module({})
export class RedisScriptsModule {
  static forFeature(scripts: readonly ScriptDefinition[]): DynamicModule {
    const token = `${FEATURE_SCRIPTS_PREFIX}${scripts.map(({ name }) => name).join(',')}`;
    return {
      module: RedisScriptsModule,
      providers: [
        { provide: token, useValue: scripts },
        { provide: `${token}:defined`, inject: [RedisStore], useFactory: (store: RedisStore) => defineScripts(store.client, scripts) },
      ],
    };
  }
}
