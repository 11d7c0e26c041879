import type { Connector } from './connector.js';
import { simulator } from './connectors/simulator/index.js';
import { authorizenet } from './connectors/authorizenet/index.js';

/**
 * A merchant environment's processor connection as the operator configured it
 * (`tessera processor set`): which connector, its plain settings (a login id, an endpoint, sandbox
 * or not) and its secrets (decrypted for this process only; stored encrypted in the vault).
 */
export interface Connection {
  connector: string;
  settings: Record<string, string | boolean | null>;
  secrets: Record<string, string>;
}

/** What the registry gives a connector to reach its processor with. */
export interface ConnectorRuntime {
  /** The HTTP client (global fetch in production; tests may pass their own). */
  fetch: typeof fetch;
}

export interface ConnectorField {
  /** snake_case; the command-line flag is its kebab-case (`login_id` -> `--login-id`). */
  name: string;
  secret: boolean;
  required: boolean;
  description: string;
}

/** One kind of connector: how to build it from a connection, and what its settings must be. */
export interface ConnectorFactory {
  readonly name: string;
  /**
   * The settings and secrets it takes, as `tessera processor set` reads them: `--login-id X` is
   * setting `login_id`. Secrets are stored encrypted and never printed. Every connector also takes
   * `endpoint` (a URL: https, or http for a loopback host only) and `sandbox` (a boolean), checked by
   * the gateway, not here.
   */
  readonly fields: readonly ConnectorField[];
  /** Refuses a connection it cannot use: an Error whose message the operator reads. */
  check(connection: Connection): void;
  create(connection: Connection, runtime: ConnectorRuntime): Connector;
}

/**
 * The connectors this gateway can use, by name, built once at start (start.ts) and reached through
 * Services. A connection's connector is built on first use and kept while its configuration stays
 * the same (a `processor set` makes a new one on the next charge).
 */
export class ProcessorRegistry {
  private readonly factories = new Map<string, ConnectorFactory>();
  private readonly open = new Map<string, Connector>();

  constructor(factories: readonly ConnectorFactory[], private readonly runtime: ConnectorRuntime = { fetch: globalThis.fetch }) {
    for (const f of factories) this.factories.set(f.name, f);
  }

  /** The test-mode processor: every test environment charges through it. */
  readonly simulator: Connector = simulator;

  names(): string[] {
    return [...this.factories.keys()];
  }

  factory(name: string): ConnectorFactory | undefined {
    return this.factories.get(name);
  }

  /** The connector for a connection (an Error for a connector this build does not have). */
  connect(connection: Connection): Connector {
    const key = JSON.stringify([connection.connector, connection.settings, connection.secrets]);
    const known = this.open.get(key);
    if (known) return known;
    const f = this.factories.get(connection.connector);
    if (!f) throw new Error(`no connector named ${connection.connector} in this build (${this.names().join(', ')})`);
    const made = f.create(connection, this.runtime);
    const account = `${connection.connector}:${JSON.stringify(Object.entries(connection.settings).sort(([a], [b]) => a.localeCompare(b)))}`;
    Object.defineProperty(made, 'account', { value: account, enumerable: true });
    if (this.open.size > 1000) this.open.clear();
    this.open.set(key, made);
    return made;
  }
}

/** The registry of every connector this build has. */
export const builtInRegistry = (runtime?: ConnectorRuntime) => new ProcessorRegistry([authorizenet], runtime);
