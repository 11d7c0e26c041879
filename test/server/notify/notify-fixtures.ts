// Real receiving ends for the notify tests: an SMTP server (smtp-server) and an HTTP server
// (node:http) on 127.0.0.1, recording what arrives, plus a small MIME reader for the mails.
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

export interface SmtpSink {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** Reply to RCPT TO with this SMTP error (e.g. 550) instead of accepting. */
  rejectWith: number | null;
  close(): Promise<void>;
}

function decodeWords(s: string): string {
  return s.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _cs, enc, data) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m: string, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'));
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '7bit').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = (at < 0 ? raw : raw.slice(0, at)).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body: at < 0 ? '' : raw.slice(at + 4) };
}

/** Reads subject, text/plain and text/html out of a (multipart/alternative) message. */
export function parseMail(raw: string): Pick<ReceivedMail, 'headers' | 'subject' | 'text' | 'html'> {
  const { headers, body } = splitHead(raw);
  const out = { headers, subject: decodeWords(headers.subject ?? ''), text: '', html: '' };
  const boundary = headers['content-type']?.match(/boundary="?([^";]+)"?/)?.[1];
  const parts = boundary
    ? body.split(`--${boundary}`).slice(1, -1).map((p) => splitHead(p.replace(/^\r\n/, '')))
    : [{ headers, body }];
  for (const p of parts) {
    const type = (p.headers['content-type'] ?? 'text/plain').toLowerCase();
    const content = decodeBody(p.body.replace(/\r\n$/, ''), p.headers['content-transfer-encoding']);
    if (type.startsWith('text/plain')) out.text = content.replace(/\r\n/g, '\n');
    if (type.startsWith('text/html')) out.html = content.replace(/\r\n/g, '\n');
  }
  return out;
}

/** An SMTP server on 127.0.0.1 (port 0: a free one) that keeps every mail it accepts. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const sink = { rejectWith: null as number | null };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (sink.rejectWith) {
        const err = Object.assign(new Error(`mailbox ${address.address} unavailable`), { responseCode: sink.rejectWith });
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return Object.assign(sink, {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A port nothing listens on (just released by a server we opened). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface HttpRequestSeen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpSink {
  url: string;
  requests: HttpRequestSeen[];
  /** Status the next requests get (default 200). */
  status: number;
  server: Server;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that records every request and answers `status`. */
export async function startHttpSink(): Promise<HttpSink> {
  const requests: HttpRequestSeen[] = [];
  const sink = { status: 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(sink.status, { 'content-type': 'application/json' });
      res.end(sink.status < 300 ? '{"ok":true}' : '{"error":"nope"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return Object.assign(sink, {
    url: `http://127.0.0.1:${port}/sms`,
    requests,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
}
