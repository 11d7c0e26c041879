import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

// Fastify's own schema compilers (Ajv for what a route validates, fast-json-stringify for what it
// answers), each compiled function kept for the process: an app built again in the same process
// (the API tests build one per file, hundreds per worker) takes the functions an earlier app
// compiled for the same schema instead of compiling every route again (~0.15 s of CPU an app).
// A gateway process builds one app, so it still compiles every route as it starts: a schema that
// cannot compile stops the start, as before. The functions hold no state between calls (Fastify
// reads an Ajv function's `errors` right after the call that set them), so apps can share them.
// What a function is compiled from is the whole key: the shared schemas and options of the app
// (the same for every app built by buildApp), the part of the request and the schema's JSON.

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Route = { schema: unknown; httpPart?: string };

function shared<F>(build: (externals: unknown, options: unknown) => (route: never) => F) {
  const byConfig = new Map<string, Map<string, F>>();
  return (externals: unknown, options: unknown) => {
    const config = JSON.stringify([externals ?? null, options ?? null]);
    const fns = byConfig.get(config) ?? new Map<string, F>();
    byConfig.set(config, fns);
    let compile: ((route: Route) => F) | undefined;
    return (route: Route): F => {
      const key = `${route.httpPart ?? ''} ${JSON.stringify(route.schema)}`;
      let fn = fns.get(key);
      if (fn === undefined) {
        compile ??= build(externals, options) as (route: Route) => F;
        fn = compile(route);
        fns.set(key, fn);
      }
      return fn;
    };
  };
}

const ajv = shared(AjvCompiler() as never);

/** The compilers every app of this process shares (app.ts). */
export const sharedCompilers: Factories = {
  buildValidator: ((externals: unknown, options: unknown) => {
    const compile = ajv(externals, options);
    return (route: Route) => {
      // With a compiler of its own, Fastify no longer lower-cases a headers schema's names: no route
      // validates headers (they are read by the hooks), and one that starts to must do that itself.
      if (route.httpPart === 'headers') throw new Error('a headers schema is not lower-cased by the shared compilers (http/compilers.ts)');
      return compile(route);
    };
  }) as unknown as Factories['buildValidator'],
  buildSerializer: shared(SerializerSelector() as never) as unknown as Factories['buildSerializer'],
};
