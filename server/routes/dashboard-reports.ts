import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseTransactionFilter } from '../domain/dashboard.js';
import { ExportKind, ExportFilter, exportCsv, parseExportFilter } from '../domain/exports.js';
import { parseDays, summary } from '../domain/reports.js';
import { parseSearch, search } from '../domain/search.js';
import { int, nullableInt, string as str, timestamp as time } from '../http/schemas.js';
import { eventSchema } from './webhooks.js';

// The dashboard's reports (issue 19): the home page's aggregates, the search box and the CSV
// exports, under /api/v1/dashboard like the rest of the dashboard's own endpoints (private key;
// every answer is the key's merchant and environment only). Contract: docs/decisions.md
// (Dashboard API (issue 19)).

const figures = {
  type: 'object',
  properties: { gross_volume: int, successful: int, declined: int, refunded: int, refunds: int, new_customers: int },
};
const summarySchema = {
  type: 'object',
  properties: {
    class: str, days: int, now: time,
    totals: { type: 'object', properties: { today: figures, last_7_days: figures, last_30_days: figures } },
    series: { type: 'array', items: { type: 'object', properties: { day: str, ...figures.properties } } },
    recent_events: { type: 'array', items: eventSchema },
  },
};
const searchSchema = {
  type: 'object',
  properties: {
    class: str, q: str,
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: { type: { type: 'string', enum: ['transaction', 'customer', 'invoice', 'subscription'] }, id: str, title: str, subtitle: str, amount: nullableInt },
      },
    },
  },
};
/** A CSV body (streamed; the serializer never sees it). */
const csvSchema = { type: 'string', description: 'text/csv; charset=utf-8, RFC 4180, a header row' };

export default async function dashboardReportRoutes(app: FastifyInstance) {
  const { db } = app.services;

  app.get('/api/v1/dashboard/summary', { schema: { response: { 200: summarySchema } } }, async (req) => ({
    class: 'summary',
    ...(await summary(db, req.identity, req.now, parseDays(req.query))),
  }));

  app.get('/api/v1/dashboard/search', { schema: { response: { 200: searchSchema } } }, async (req) => {
    const query = parseSearch(req.query);
    return { class: 'search', q: query.q, results: await search(db, req.identity, query) };
  });

  const exporter = (kind: ExportKind, readFilter: (query: unknown) => ExportFilter) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      // Every filter is read before the first byte: a bad one is a 400, never a cut-off file.
      const filter = readFilter(req.query);
      const day = req.now.toISOString().slice(0, 10);
      reply.type('text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${kind}-${req.identity.env}-${day}.csv"`);
      return reply.send(Readable.from(exportCsv(db, req.identity, kind, filter)));
    };
  const csv = { schema: { response: { 200: csvSchema } } };
  app.get('/api/v1/dashboard/export/transactions.csv', csv, exporter('transactions', (q) => ({ transactions: parseTransactionFilter(q) })));
  app.get('/api/v1/dashboard/export/customers.csv', csv, exporter('customers', (q) => parseExportFilter('customers', q)));
  app.get('/api/v1/dashboard/export/invoices.csv', csv, exporter('invoices', (q) => parseExportFilter('invoices', q)));
}
