import type { RedisClient } from './redis-client-type';

/** What a script takes after its keys; ioredis sends numbers as their decimal text. */
export type ScriptArgument = string | number;

/** A fixed list of keys is counted once, when the script is defined; a list whose length varies is counted per call. */
type KeyCount<Keys extends readonly string[]> = number extends Keys['length'] ? null : Keys['length'];

/**
 * One Lua script: its Lua, its command name on a client, its number of keys, and its typed call. Each feature keeps
 * its scripts beside its code (`*.script.ts`) and has them defined on the store client by its module
 * (RedisScriptsModule.forFeature); `run` then calls it with no cast at the call site. Every key a script takes is in KEYS, so that a Redis Cluster routes the call to the keys' slot.
 */
export interface RedisScript<Keys extends readonly string[], Args extends readonly ScriptArgument[], Reply> {
  /** the command's name on a client: `lvs` and the script's name, so that no script meets an ioredis command */
  readonly name: string;
  readonly lua: string;
  /** null: the script takes as many keys as each call passes */
  readonly numberOfKeys: number | null;
  run(client: RedisClient, keys: Keys, args: Args): Promise<Reply>;
}

type ScriptCommand = (...keysAndArgs: ScriptArgument[]) => Promise<unknown>;

/** The command name of a script named `name`: one prefix for all of them. */
export function scriptCommandName(name: string): string {
  return `lvs${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/**
 * A script, typed by its keys, its arguments and its reply. A fixed key list's length must be the script's
 * numberOfKeys (the type says so); a list whose length varies needs numberOfKeys null.
 */
export function redisScript<Keys extends readonly string[], Args extends readonly ScriptArgument[], Reply>(definition: {
  name: string;
  lua: string;
  numberOfKeys: KeyCount<Keys>;
}): RedisScript<Keys, Args, Reply> {
  const name = scriptCommandName(definition.name);
  const { lua, numberOfKeys } = definition;
  return {
    name,
    lua,
    numberOfKeys,
    run(client, keys, args) {
      // ioredis adds a defined script to the client as a method of its own, which its types cannot know.
      const command = (client as unknown as Partial<Record<string, ScriptCommand>>)[name];
      if (command === undefined) throw new Error(`Redis script ${name} is not defined on this client (RedisScriptsModule.forFeature)`);
      const counted = numberOfKeys === null ? [keys.length, ...keys] : keys;
      return command.call(client, ...counted, ...args).then((reply) => {
        // A cluster client can hand a redirection's error back as the reply during a failover, instead of rejecting.
        if (reply instanceof Error) throw reply;
        return reply as Reply;
      });
    },
  };
}

/** What defining a script on a client needs, whatever its keys, arguments and reply. */
export type ScriptDefinition = Pick<RedisScript<readonly string[], readonly ScriptArgument[], unknown>, 'name' | 'lua' | 'numberOfKeys'>;

/** Defines the scripts on the client (a server, a Sentinel primary or a cluster); defining one again changes nothing. */
export function defineScripts<Client extends RedisClient>(client: Client, scripts: readonly ScriptDefinition[]): Client {
  for (const { name, lua, numberOfKeys } of scripts) client.defineCommand(name, { lua, numberOfKeys: numberOfKeys ?? undefined });
  return client;
}
