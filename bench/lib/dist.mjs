/** Imports a module of the built server (`npm run build` emits dist/server/*.js). */
export function dist(path) {
  return import(new URL(`../../dist/server/${path}`, import.meta.url).href);
}
