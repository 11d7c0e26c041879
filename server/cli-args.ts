import { parseArgs } from 'node:util';
import type { Env, ExpireOld } from './domain/merchant/keys.js';
import { builtInRegistry } from './processor/registry.js';

/** `tessera data-key`'s usage (its command, data-key-command.ts, answers a mistake with it too). */
export const DATA_KEY_USAGE = `  tessera data-key reencrypt [--batch N]          re-encrypt stored payment data under TESSERA_DATA_KEY (v2, bound to
                                                  its row), so TESSERA_DATA_KEYS_RETIRED can be dropped; safe while
                                                  gateways run on PostgreSQL (embedded: stop the gateway first)`;

/**
 * The command line, read before anything else happens: no configuration, no directory, no database
 * until the arguments are known to be right. `--help` anywhere prints that command's help; a
 * mistake is a UsageError (one line, exit status 2).
 */
export class UsageError extends Error {}

export type Command =
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  | { kind: 'serve'; dev: boolean }
  | { kind: 'keys create'; merchant?: string; name?: string; env: Env; expireOld: ExpireOld }
  | { kind: 'keys list'; merchant: string }
  | { kind: 'data-key reencrypt'; args: string[] }
  | ProcessorCommand;

/** `tessera processor …`: server/processor-command.ts. A connector's fields are `fields`, by name (`login_id`). */
export type ProcessorCommand =
  | { kind: 'processor set'; merchant: string; env: Env; connector: string; fields: Record<string, string>; sandbox: boolean; endpoint: string | null; check: boolean }
  | { kind: 'processor show'; merchant: string; env: Env }
  | { kind: 'processor remove'; merchant: string; env: Env }
  | { kind: 'processor reconcile'; merchant?: string; env?: Env };

type OptionSpec = { type: 'string' | 'boolean'; values?: string[] };

interface Spec {
  usage: string;
  options: Record<string, OptionSpec>;
  /** Subcommands: the command itself does nothing but print its help. */
  sub?: string[];
}

const KEYS_CREATE = `  tessera keys create [--merchant ID] [--name NAME] [--env test|live] [--expire-old now|1h|never]
                                                  new key set (a new merchant when --merchant is absent)`;
const KEYS_LIST = `  tessera keys list --merchant ID                 key sets, redacted`;
const SERVE = `  tessera serve [--dev]                           start the gateway (PORT, DATABASE_URL, TESSERA_DATA_DIR, ...);
                                                  no merchant, no key: tessera keys create --name NAME makes one;
                                                  --dev: development mode, a demo merchant and the demo checkout`;
const KEYS_NOTE = `The keys commands work while an embedded gateway runs on the same data directory (they ask it
over loopback); on PostgreSQL (DATABASE_URL) they use the database directly.`;

const PROCESSOR_SET = `  tessera processor set --merchant ID [--env live] --connector NAME [its options] [--sandbox | --endpoint URL]
                                                  connect a merchant's live charges to its processor`;
const PROCESSOR_SHOW = `  tessera processor show --merchant ID [--env live]
                                                  the connection: connector, settings, which secrets are set`;
const PROCESSOR_REMOVE = `  tessera processor remove --merchant ID [--env live]
                                                  remove it: live charges are refused (PROC01) until set again`;
const PROCESSOR_RECONCILE = `  tessera processor reconcile [--merchant ID] [--env test|live]
                                                  resolve pending charges and refunds by asking their processor`;
const PROCESSOR_USAGE = [PROCESSOR_SET, PROCESSOR_SHOW, PROCESSOR_REMOVE, PROCESSOR_RECONCILE].join('\n');
const PROCESSOR_NOTE = `Test mode always charges through the simulator: a connection is for --env live (the default).
Secrets are stored encrypted with TESSERA_DATA_KEY and never printed. Like the keys commands, these work
while an embedded gateway runs on the same data directory (they ask it over loopback); on PostgreSQL
(DATABASE_URL) they use the database directly, with TESSERA_DATA_KEY set as for the gateways.`;

/** Every connector of this build and the options its fields take (`login_id` is `--login-id`). */
const CONNECTORS = builtInRegistry().names().map((n) => builtInRegistry().factory(n)!);
const flag = (field: string) => field.replace(/_/g, '-');
const FIELD_OPTIONS = new Map(CONNECTORS.flatMap((c) => c.fields.map((f) => [flag(f.name), f.name] as const)));
const connectorHelp = CONNECTORS.map((c) => `  ${c.name}:\n${c.fields.map((f) =>
  `    --${flag(f.name)} ${f.secret ? 'SECRET' : 'VALUE'}`.padEnd(34) + `${f.description}${f.required ? '' : ' (optional)'}${f.secret ? ', secret' : ''}`).join('\n')}`).join('\n');
const scopeOptions = {
  merchant: { type: 'string' }, env: { type: 'string', values: ['test', 'live'] },
} satisfies Record<string, OptionSpec>;

export const USAGE = `usage:
${SERVE}
${KEYS_CREATE}
${KEYS_LIST}
${DATA_KEY_USAGE}
${PROCESSOR_USAGE}
  tessera --help | --version                      this help | the version
  tessera COMMAND --help                          a command's options
`;

const SPECS: Record<string, Spec> = {
  serve: {
    usage: `usage:\n${SERVE}

options:
  --dev    development mode: on an empty database a demo merchant whose test keys are printed,
           the demo checkout at / (unless TESSERA_DEMO=off), and test-mode webhooks and
           callbacks may call loopback (unless TESSERA_TEST_LOOPBACK=off)

Without --dev (production) the gateway makes no merchant and prints no key; the operator makes
the first merchant with tessera keys create --name NAME (its private key is printed once).
`,
    options: { dev: { type: 'boolean' } },
  },
  keys: { usage: `usage:\n${KEYS_CREATE}\n${KEYS_LIST}\n\n${KEYS_NOTE}\n`, options: {}, sub: ['create', 'list'] },
  'keys create': {
    usage: `usage:\n${KEYS_CREATE}

options:
  --merchant ID            the merchant (mer_…); absent: a new merchant
  --name NAME              the new merchant's name (default "Merchant")
  --env test|live          the environment of the keys (default test)
  --expire-old now|1h|never  when the merchant's older keys of that environment stop working (default now)

The private key is printed once.
${KEYS_NOTE}
`,
    options: {
      merchant: { type: 'string' },
      name: { type: 'string' },
      env: { type: 'string', values: ['test', 'live'] },
      'expire-old': { type: 'string', values: ['now', '1h', 'never'] },
    },
  },
  'keys list': {
    usage: `usage:\n${KEYS_LIST}\n\noptions:\n  --merchant ID    the merchant (mer_…), required\n\n${KEYS_NOTE}\n`,
    options: { merchant: { type: 'string' } },
  },
  'data-key': { usage: `usage:\n${DATA_KEY_USAGE}\n`, options: {}, sub: ['reencrypt'] },
  'data-key reencrypt': {
    usage: `usage:\n${DATA_KEY_USAGE}\n\noptions:\n  --batch N    rows per transaction, 1 to 10000 (default 500)\n`,
    options: { batch: { type: 'string' } },
  },
  processor: { usage: `usage:\n${PROCESSOR_USAGE}\n\n${PROCESSOR_NOTE}\n`, options: {}, sub: ['set', 'show', 'remove', 'reconcile'] },
  'processor set': {
    usage: `usage:\n${PROCESSOR_SET}

options:
  --merchant ID              the merchant (mer_…), required
  --env live                 the environment (default live; test always uses the simulator)
  --connector NAME           the processor: ${CONNECTORS.map((c) => c.name).join(', ')}
  --sandbox                  the processor's sandbox instead of its production endpoint
  --endpoint URL             another endpoint: https, or http to a loopback host only (a local fake processor)
  --no-check                 save without asking the processor whether the credentials and its reporting work

A secret given as - is read from standard input (its first line), so it never shows in the process
list or the shell's history: printf '%s\\n' "$KEY" | tessera processor set … --transaction-key -

the options of each connector:
${connectorHelp}

A set replaces the merchant environment's whole connection; the next live charge uses it.
${PROCESSOR_NOTE}
`,
    options: {
      ...scopeOptions, connector: { type: 'string' }, sandbox: { type: 'boolean' }, endpoint: { type: 'string' }, 'no-check': { type: 'boolean' },
      ...Object.fromEntries([...FIELD_OPTIONS.keys()].map((o) => [o, { type: 'string' as const }])),
    },
  },
  'processor show': {
    usage: `usage:\n${PROCESSOR_SHOW}\n\noptions:\n  --merchant ID    the merchant (mer_…), required\n  --env live       the environment (default live)\n\n${PROCESSOR_NOTE}\n`,
    options: scopeOptions,
  },
  'processor remove': {
    usage: `usage:\n${PROCESSOR_REMOVE}\n\noptions:\n  --merchant ID    the merchant (mer_…), required\n  --env live       the environment (default live)\n\n${PROCESSOR_NOTE}\n`,
    options: scopeOptions,
  },
  'processor reconcile': {
    usage: `usage:\n${PROCESSOR_RECONCILE}

options:
  --merchant ID    only this merchant's (default: every merchant's)
  --env test|live  only this environment's (default: both)

Prints what it examined and how each was resolved.
${PROCESSOR_NOTE}
`,
    options: scopeOptions,
  },
};

const fail = (what: string, help: string): never => {
  throw new UsageError(`${what}; ${help}`);
};

/** Reads argv (without node and the script). Pure: touches nothing. */
export function parseCommand(argv: string[]): Command {
  const first = argv[0];
  if (first === undefined) return { kind: 'serve', dev: false };
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = argv.slice(1).filter((a) => !a.startsWith('-')).join(' ');
    if (first === 'help' && topic) {
      const spec = SPECS[topic] ?? fail(`unknown command ${topic}`, 'tessera --help lists the commands');
      return { kind: 'help', text: spec.usage };
    }
    return { kind: 'help', text: USAGE };
  }
  if (first === '--version' || first === '-v') return { kind: 'version' };
  if (first.startsWith('-')) fail(`unknown option ${optionName(first)}`, 'tessera --help lists the options');
  if (!SPECS[first]) fail(`unknown command ${first}`, 'tessera --help lists the commands');

  // The command's words: `keys create`, `data-key reencrypt`.
  let name = first;
  let rest = argv.slice(1);
  const sub = SPECS[name].sub;
  if (sub) {
    const at = subcommandAt(rest, sub.map((w) => SPECS[`${name} ${w}`]));
    if (at >= 0) {
      const word = rest[at];
      if (!sub.includes(word)) fail(`unknown command ${name} ${word}`, `tessera ${name} --help lists its commands`);
      name = `${name} ${word}`;
      rest = rest.filter((_, i) => i !== at);
    }
  }
  const spec = SPECS[name];
  const help = `tessera ${name} --help lists the options`;
  const values = spec.sub ? (rest.some(isHelp) ? 'help' : {}) : readOptions(rest, spec, help);
  if (values === 'help') return { kind: 'help', text: spec.usage };
  if (spec.sub) fail(`${name} needs a command: ${spec.sub.join(' or ')}`, `tessera ${name} --help`);

  switch (name) {
    case 'serve':
      return { kind: 'serve', dev: values.dev === true };
    case 'keys create':
      return {
        kind: 'keys create',
        merchant: values.merchant as string | undefined,
        name: values.name as string | undefined,
        env: (values.env ?? 'test') as Env,
        expireOld: (values['expire-old'] ?? 'now') as ExpireOld,
      };
    case 'keys list':
      if (values.merchant === undefined) fail('keys list needs --merchant ID', help);
      return { kind: 'keys list', merchant: values.merchant as string };
    case 'processor set':
    case 'processor show':
    case 'processor remove':
    case 'processor reconcile':
      return processorCommand(name, values, help);
    default: {
      // data-key reencrypt: data-key-command.ts reads its arguments again; here they are only checked.
      const batch = values.batch === undefined ? 500 : Number(values.batch);
      if (!/^\d+$/.test(String(values.batch ?? '500')) || batch < 1 || batch > 10_000) {
        fail(`--batch must be a whole number from 1 to 10000, got ${JSON.stringify(values.batch)}`, help);
      }
      return { kind: 'data-key reencrypt', args: ['reencrypt', ...rest] };
    }
  }
}

function processorCommand(name: ProcessorCommand['kind'], values: Record<string, string | boolean>, help: string): ProcessorCommand {
  const merchant = values.merchant as string | undefined;
  if (name === 'processor reconcile') return { kind: name, merchant, env: values.env as Env | undefined };
  if (merchant === undefined) fail(`${name} needs --merchant ID`, help);
  const env = (values.env ?? 'live') as Env;
  if (name !== 'processor set') return { kind: name, merchant: merchant!, env };
  if (values.connector === undefined) fail(`processor set needs --connector NAME (${CONNECTORS.map((c) => c.name).join(', ')})`, help);
  if (values.sandbox === true && values.endpoint !== undefined) fail('--sandbox and --endpoint exclude each other', help);
  const fields: Record<string, string> = {};
  for (const [option, field] of FIELD_OPTIONS) if (typeof values[option] === 'string') fields[field] = values[option] as string;
  return {
    kind: name, merchant: merchant!, env, connector: values.connector as string, fields,
    sandbox: values.sandbox === true, endpoint: (values.endpoint as string | undefined) ?? null, check: values['no-check'] !== true,
  };
}

/** Where the subcommand word is: the first argument that is neither an option nor an option's value. */
function subcommandAt(args: string[], specs: Spec[]): number {
  const takesValue = new Set(specs.flatMap((s) => Object.entries(s.options).filter(([, o]) => o.type === 'string').map(([k]) => `--${k}`)));
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') return i + 1 < args.length ? i + 1 : -1;
    if (!args[i].startsWith('-')) return i;
    if (takesValue.has(args[i])) i++;
  }
  return -1;
}

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

function optionName(arg: string): string {
  return arg.split('=')[0];
}

/** The options of one command, each checked; 'help' when --help or -h is among them. */
function readOptions(args: string[], spec: Spec, help: string): Record<string, string | boolean> | 'help' {
  const options = { ...spec.options, help: { type: 'boolean' as const } };
  const { tokens } = parseArgs({
    args, strict: false, allowPositionals: true, tokens: true,
    options: Object.fromEntries(Object.entries(options).map(([k, o]) => [k, { type: o.type }])),
  });
  const real = tokens.filter((t) => t.kind !== 'option-terminator');
  if (real.some((t) => t.kind === 'option' && isHelp(t.rawName))) return 'help';
  const values: Record<string, string | boolean> = {};
  for (const t of real) {
    if (t.kind === 'positional') fail(`unexpected argument ${t.value}`, help);
    if (t.kind !== 'option') continue;
    const o: OptionSpec | undefined = (spec.options as Record<string, OptionSpec>)[t.name];
    if (!o || !t.rawName.startsWith('--')) fail(`unknown option ${t.rawName}`, help);
    if (values[t.name] !== undefined) fail(`option --${t.name} is given twice`, help);
    if (o!.type === 'boolean') {
      if (t.value !== undefined) fail(`option --${t.name} takes no value`, help);
      values[t.name] = true;
      continue;
    }
    // `--merchant --name x` must not read "--name" as the merchant (a lone `-` is a value: standard input).
    if (t.value === undefined || t.value === '' || (!t.inlineValue && t.value.startsWith('-') && t.value !== '-')) {
      fail(`option --${t.name} needs a value`, help);
    }
    if (o!.values && !o!.values.includes(t.value!)) {
      fail(`--${t.name} must be ${o!.values.slice(0, -1).join(', ')} or ${o!.values.at(-1)}, got ${JSON.stringify(t.value)}`, help);
    }
    values[t.name] = t.value!;
  }
  return values;
}
