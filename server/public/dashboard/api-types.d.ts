// The API's answers as the dashboard's JSDoc names them, read from openapi.d.ts (generated from the
// served OpenAPI document by `npm run dashboard:types`; docs/decisions/dashboard.md). Hand-written:
// only these few aliases. A page writes
//   /** @typedef {import('../api-types').Answer<'/dashboard/summary'>} Summary */
// and tsc (npm run typecheck:dashboard) refuses a field the document does not describe, or a path
// or method the API does not have.
import type { components, paths } from './openapi';

/** A path of the API, under /api/v1 (`/dashboard/summary`, `/charge/{id}`). */
export type Path = keyof paths;

type Verb = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The methods `P` answers. */
export type Method<P extends Path> = { [M in Verb]-?: NonNullable<paths[P][M]> extends never ? never : M }[Verb];

type Operation<P extends Path, M extends Method<P>> = NonNullable<paths[P][M]>;

type Json<R> = R extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON body of the success answer (200, else 202) of `M` (default GET) on `P`. */
export type Answer<P extends Path, M extends Method<P> = Method<P> & 'get'> =
  Operation<P, M>['responses'] extends infer R
    ? R extends { 200: infer OK } ? Json<OK> : R extends { 202: infer Accepted } ? Json<Accepted> : never
    : never;

/** The JSON body `M` on `P` takes. */
export type Body<P extends Path, M extends Method<P>> =
  Json<NonNullable<Operation<P, M> extends { requestBody?: infer B } ? B : never>>;

/** One item of a list answer (`{ list, meta }`) of GET `P`. */
export type Item<P extends Path> = Answer<P> extends { list: (infer I)[] } ? I : never;

/** `{ errors: [{ code, message }] }`: what every failure answers. */
export type Errors = components['schemas']['Errors'];
