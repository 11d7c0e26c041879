// No exported domain command takes a raw request value (issue 31): a body or query string is read
// by its route's field table (server/schemas/fields.ts) and the domain takes what the table typed.
// Found by the compiler: every parameter of every exported function of server/domain/ whose type is
// an object of `unknown` (or `any`) values under any key (`Record<string, unknown>`: what a parsed
// body or query string is), or `unknown`/`any` under a name a body goes by (body, query, input,
// data, fields, details), fails here unless it is listed below with why. A reader of one value
// (a day, a constraint, an id from the path) may take `unknown`: that is what a field's reader is.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { ROOT } from '../../../server/paths.js';

/** `file:function:parameter` that take such a value on purpose, and why. */
const ALLOWED: Record<string, string> = {
  'events/dispatch.ts:ruleMatches:data': "an event's presented object (the gateway made it), matched against a rule's constraints",
};

const BODY_NAMES = new Set(['body', 'query', 'input', 'data', 'fields', 'details']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

function isRaw(type: ts.Type, checker: ts.TypeChecker, name: string): boolean {
  if (type.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return BODY_NAMES.has(name);
  if (type.isUnion()) return type.types.some((t) => isRaw(t, checker, name));
  const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  return !!index && !!(index.type.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any));
}

test('no exported domain function takes a raw body, query or value of unknown type', () => {
  const domain = join(ROOT, 'server', 'domain');
  const program = ts.createProgram(files(domain), { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(domain)) continue;
    const rel = sf.fileName.slice(domain.length + 1);
    const module = checker.getSymbolAtLocation(sf);
    for (const symbol of module ? checker.getExportsOfModule(module) : []) {
      const decl = symbol.valueDeclaration;
      if (!decl) continue;
      const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
      for (const signature of type.getCallSignatures()) {
        for (const p of signature.getParameters()) {
          const key = `${rel}:${symbol.name}:${p.name}`;
          if (ALLOWED[key]) continue;
          if (isRaw(checker.getTypeOfSymbolAtLocation(p, decl), checker, p.name)) found.push(key);
        }
      }
    }
  }
  expect(found).toEqual([]);
}, 60_000);
