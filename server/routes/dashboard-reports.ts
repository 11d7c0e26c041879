import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ExportKind, ExportFilter, exportCsv } from '../domain/dashboard/exports.js';
import { summary } from '../domain/dashboard/reports.js';
import { search } from '../domain/dashboard/search.js';
import { E } from '../errors.js';
import {
  CustomersCsvQuery, InvoicesCsvQuery, SearchQuery, SearchSchema, SummaryQuery, SummarySchema, TransactionsCsvQuery, transactionFilterOf,
} from '../schemas/dashboard.js';

// The dashboard's reports (issue 19): the home page's aggregates, the search box and the CSV
// exports, under /api/v1/dashboard like the rest of the dashboard's own endpoints (private key;
// every answer is the key's merchant and environment only). Contract:
// docs/decisions/dashboard-api.md.

const CSV_NOTE = 'Answers `text/csv; charset=utf-8` as an attachment, streamed: RFC 4180 with CRLF and a header row; in text cells '
  + "a leading = + - @ TAB or CR, and = + - @ after a , ; TAB or line break inside the cell, get a ' before them (OWASP), and a cell "
  + 'holding , ; \' " TAB CR or LF is quoted; money as decimal units (`amount`) and integer cents (`amount_cents`); card numbers masked.';

/** The CSV's header row and first batch, read now; the rest as the client reads (exports.ts). */
async function primed(csv: AsyncGenerator<string>): Promise<Readable> {
  const first: string[] = [];
  for (let i = 0; i < 2; i++) {
    const next = await csv.next();
    if (next.done) break;
    first.push(next.value);
  }
  return Readable.from((async function* () {
    yield* first;
    yield* csv;
  })());
}

export default async function dashboardReportRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/api/v1/dashboard/summary', {
    config: { errors: [E.SUMMARY_DAYS_INVALID] },
    schema: { summary: 'Dashboard home: charges, declines, refunds and new customers per UTC day, totals and recent events', querystring: SummaryQuery, response: { 200: SummarySchema } },
  }, async (req) => ({
    class: 'summary',
    ...(await summary(db, req.identity, req.now, SummaryQuery.from(req).days)),
  }));

  app.get('/api/v1/dashboard/search', {
    config: { errors: [E.SEARCH_INVALID] },
    schema: { summary: 'Search transactions, customers, invoices and subscriptions', querystring: SearchQuery, response: { 200: SearchSchema } },
  }, async (req) => {
    const query = SearchQuery.from(req);
    return { class: 'search', q: query.q, results: await search(db, req.identity, query) };
  });

  const exporter = <I>(kind: ExportKind, table: { from(req: FastifyRequest): I }, readFilter: (input: I) => ExportFilter) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      // Every filter is read before the first byte: a bad one is a 400, never a cut-off file.
      const filter = readFilter(table.from(req));
      const day = req.now.toISOString().slice(0, 10);
      // And the first batch is read before it too: a query that fails is an error answer, not a file.
      const body = await primed(exportCsv(db, req.identity, kind, filter));
      reply.type('text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${kind}-${req.identity.env}-${day}.csv"`);
      // A later batch that fails destroys the connection (Fastify, once headers are sent): the
      // download fails as incomplete (no final chunk), never ends cleanly as a shorter file.
      return reply.send(body);
    };
  // No response schema: the body is CSV text, not JSON (CSV_NOTE says what it is).
  const csv = (what: string, querystring: object) => ({
    schema: { summary: `Export ${what} as CSV`, description: CSV_NOTE, querystring, produces: { 'text/csv': { schema: { type: 'string' }, example: 'id,amount,created_at\r\n' } } },
  });
  app.get('/api/v1/dashboard/export/transactions.csv', csv('transactions (the filters of /dashboard/transactions)', TransactionsCsvQuery),
    exporter('transactions', TransactionsCsvQuery, (q) => ({ transactions: transactionFilterOf(q) })));
  app.get('/api/v1/dashboard/export/customers.csv', csv('customers', CustomersCsvQuery), exporter('customers', CustomersCsvQuery, (q) => ({ searchTerm: q.search_term })));
  app.get('/api/v1/dashboard/export/invoices.csv', csv('invoices', InvoicesCsvQuery), exporter('invoices', InvoicesCsvQuery, (q) => ({ invoiceStatus: q.status })));
}
