/**
 * The connector seam: what a payment processor (an acquirer's API, or the test-mode simulator)
 * must do for the gateway. One implementation per folder under `connectors/<name>/`, registered by
 * name in registry.ts. A connector never reads the database and never decides the gateway's error
 * codes: it turns the gateway's request into the processor's, and the processor's answer into a
 * ProcessorResult (its own reason text kept for the merchant). The domain owns what happens next.
 */

/** Billing address as the payer gave it (any field may be absent). */
export interface Address {
  line1: string | null;
  line2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
}

export interface CardInstrument {
  kind: 'card';
  /** The full number, decrypted for this call only. */
  number: string;
  /** 1-12; null when the card came without one (test tokens may). */
  expMonth: number | null;
  /** Four digits. */
  expYear: number | null;
  /** The security code: only on a token's or a card's first use, never for a stored method. */
  csc: string | null;
  holder: string | null;
  address: Address;
}

export interface BankInstrument {
  kind: 'bank';
  routing: string;
  /** The full account number, decrypted for this call only. */
  account: string;
  type: 'checking' | 'savings' | 'business_checking';
  holder: string;
  /** NACHA standard entry class: WEB for a payer online, PPD/CCD for a stored consumer/business account. */
  entryClass: 'WEB' | 'PPD' | 'CCD' | 'TEL';
}

export type Instrument = CardInstrument | BankInstrument;

export interface SaleRequest {
  /** The gateway's transaction id (32 hex digits): the processor-side reference lookup finds the sale by. A connector whose processor takes fewer characters sends a fixed prefix of it and matches lookups by the same prefix. */
  reference: string;
  /** Minor units (cents). */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
  instrument: Instrument;
  /** The payer's address when the request came from the payer's browser or the merchant passed it. */
  payerIp: string | null;
  description: string | null;
  customer: { id: string | null; email: string | null; firstName: string | null; lastName: string | null; company: string | null };
}

/**
 * What the processor said, read into five outcomes:
 * - approved: the money moves (a sale authorized and captured; a refund or void accepted);
 * - declined: the issuer or bank said no;
 * - held: the processor accepted it but holds it for review (not settled; decided later);
 * - invalid: the processor refused the request itself (bad credentials, a field it rejects, a refund
 *   it will not make) — nothing happened at the processor;
 * - unknown: no answer we can read (timeout, dropped connection, a 5xx, a body we cannot parse).
 *   The operation may or may not have happened: never retried blindly, resolved by lookup.
 */
export type Outcome = 'approved' | 'declined' | 'held' | 'invalid' | 'unknown';

export interface ProcessorResult {
  outcome: Outcome;
  /** The processor's transaction id, when it gave one. */
  processorId: string | null;
  authCode: string | null;
  /** The processor's AVS and CVV result codes, as it sent them. */
  avs: string | null;
  cvv: string | null;
  /** The processor's own code for the result (e.g. a response reason code): kept, never our error code. */
  reasonCode: string | null;
  /** The processor's own text, for the merchant. */
  message: string | null;
  /**
   * A refund refused because the sale has not settled yet (nothing happened): the gateway may void
   * the sale instead when the whole of it is refunded.
   */
  notSettled?: boolean;
}

export interface ReverseRequest {
  /** The gateway's id for this refund or void (the processor-side reference of the new operation). */
  reference: string;
  /** The sale being reversed. */
  sale: {
    reference: string;
    processorId: string;
    amount: number;
    /** What the refund needs to name the instrument without its full number. */
    instrument: { kind: 'card'; last4: string; expMonth: number | null; expYear: number | null }
      | { kind: 'bank'; last4: string; routing: string | null; type: BankInstrument['type']; holder: string };
  };
  /** Minor units; for a void, the sale's amount. */
  amount: number;
  currency: string;
}

/** Where a sale stands at the processor now. */
export type Settlement = 'unsettled' | 'settled' | 'voided' | 'declined' | 'held' | 'failed';

export interface LookupRequest {
  /** The gateway's reference of the operation (a sale's transaction id, a refund's id). */
  reference: string;
  /** The processor's id when the gateway has it (an answered sale); null for an unknown outcome. */
  processorId: string | null;
  /** When the gateway recorded it: bounds the processor-side search. */
  createdAt: Date;
  amount: number;
}

export type LookupResult =
  | { found: false }
  | { found: true; result: ProcessorResult; settlement: Settlement };

export interface CallContext {
  /** Aborted at the call's deadline: the connector stops waiting and answers `unknown`. */
  signal: AbortSignal;
}

export interface Connector {
  readonly name: string;
  /**
   * Answers from its inputs alone, at once, with no I/O and no money moved (the test-mode
   * simulator): the gateway may then ask it before the charge is recorded, in one statement.
   */
  readonly local: boolean;
  /**
   * Which processor account it charges, without a secret (the registry sets it from the
   * connection's plain settings): an operation recorded under one account is never called
   * unknown to another (reconcile.ts).
   */
  readonly account?: string;
  /** Authorize and capture. */
  sale(req: SaleRequest, ctx: CallContext): Promise<ProcessorResult>;
  /** Cancels an unsettled sale whole. */
  void(req: ReverseRequest, ctx: CallContext): Promise<ProcessorResult>;
  /** Returns part or all of a settled sale. */
  refund(req: ReverseRequest, ctx: CallContext): Promise<ProcessorResult>;
  /** Finds an operation by the gateway's reference (or the processor's id): how an unknown outcome is resolved. */
  lookup(req: LookupRequest, ctx: CallContext): Promise<LookupResult>;
  /**
   * What the connection lacks for the gateway's use of it, as the processor answers now (credentials
   * refused, its reporting off so lookups cannot work): one sentence each, none when all is well.
   * Moves no money; `tessera processor set` asks it and prints the answer.
   */
  probe?(ctx: CallContext): Promise<string[]>;
}

/** How long the gateway waits for a processor's answer before it records the outcome as unknown. */
export const PROCESSOR_DEADLINE_MS = 25_000;

export const unknownResult = (message: string): ProcessorResult => ({
  outcome: 'unknown', processorId: null, authCode: null, avs: null, cvv: null, reasonCode: null, message,
});
