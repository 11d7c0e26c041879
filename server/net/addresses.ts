import ipaddr from 'ipaddr.js';

// Which addresses Tessera may call on a merchant's behalf. A merchant names a URL (a webhook
// strategy, a plan's callback_url); the gateway then connects from inside the operator's network,
// so a URL naming the cloud metadata service, the database or a loopback admin port would turn the
// gateway into the merchant's proxy (SSRF). Only globally routed unicast addresses are public;
// addresses that embed an IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by the one inside.

export type AddressClass = 'public' | 'loopback' | 'private';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** Blocks ipaddr.js calls `unicast` but that are not public either. */
const EXTRA_V6: Array<[IPv6, number]> = [
  ['::', 96], // IPv4-compatible (deprecated): ::127.0.0.1
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['3fff::', 20], // documentation (RFC 9637)
].map(([a, bits]) => [ipaddr.IPv6.parse(a as string), bits as number]);

function classifyV4(a: IPv4): AddressClass {
  const range = a.range();
  if (range === 'unicast') return 'public';
  return range === 'loopback' ? 'loopback' : 'private';
}

/** The IPv4 address an IPv6 address carries (mapped, translated, NAT64, 6to4), if any. */
function embeddedV4(a: IPv6): IPv4 | null {
  const p = a.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  switch (a.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return v4(p[6], p[7]);
    case 'rfc6052':
      return p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? v4(p[6], p[7]) : null;
    case '6to4':
      return v4(p[1], p[2]);
    default:
      return null;
  }
}

function classifyV6(a: IPv6): AddressClass {
  const range = a.range();
  if (range === 'loopback') return 'loopback';
  const inner = embeddedV4(a);
  if (inner) {
    const c = classifyV4(inner);
    // Only an IPv4-mapped address reaches the host itself; 127.x inside NAT64 or 6to4 goes to a relay.
    return c === 'loopback' && range !== 'ipv4Mapped' ? 'private' : c;
  }
  if (range !== 'unicast' || EXTRA_V6.some(([net, bits]) => a.match(net, bits))) return 'private';
  return 'public';
}

/** Parses an IP literal (brackets allowed, as in a URL host); null when it is not one. */
export function parseIp(s: string): IPv4 | IPv6 | null {
  const bare = s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s;
  // Only the canonical dotted quad counts as IPv4 here: new URL() already rewrote integer, hex and
  // octal forms (http://2130706433/, http://0x7f.1/) to it, and DNS answers are always canonical.
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  return ipaddr.IPv6.isValid(bare) ? ipaddr.IPv6.parse(bare) : null;
}

/** public, loopback or private (every other class: RFC 1918, link-local, CGNAT, ULA, multicast, reserved, 0.0.0.0 …). */
export function classifyIp(ip: string): AddressClass {
  const a = parseIp(ip);
  if (!a) return 'private';
  return a.kind() === 'ipv4' ? classifyV4(a as IPv4) : classifyV6(a as IPv6);
}

/** `localhost` and `*.localhost` are loopback by definition (RFC 6761); no resolver is asked. */
export function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * The operator's exceptions (TESSERA_OUTBOUND_ALLOW): CIDR blocks or single addresses
 * (`10.0.0.0/8`, `fd00::/8`, `192.168.1.20`), host names (`hooks.internal`), and name suffixes
 * (`*.corp.example`, which does not match `corp.example` itself).
 */
export class AllowList {
  private readonly nets: Array<[IPv4 | IPv6, number]> = [];
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];

  constructor(entries: readonly string[] = []) {
    for (const raw of entries) {
      const e = raw.trim().toLowerCase();
      if (!e) continue;
      if (e.includes('/')) {
        let net: [IPv4 | IPv6, number];
        try {
          net = ipaddr.parseCIDR(e);
        } catch {
          throw new Error(`not a CIDR block: ${raw}`);
        }
        this.nets.push(net);
      } else if (parseIp(e)) {
        const a = parseIp(e)!;
        this.nets.push([a, a.kind() === 'ipv4' ? 32 : 128]);
      } else if (/^(\*\.)?([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?\.?$/.test(e)) {
        if (e.startsWith('*.')) this.suffixes.push(e.slice(1).replace(/\.$/, ''));
        else this.names.add(e.replace(/\.$/, ''));
      } else {
        throw new Error(`not an address, CIDR block or host name: ${raw}`);
      }
    }
  }

  get size(): number {
    return this.nets.length + this.names.size + this.suffixes.length;
  }

  /** A host name (as in the URL) the operator trusts whatever it resolves to. */
  allowsName(host: string): boolean {
    const h = host.toLowerCase().replace(/\.$/, '');
    return this.names.has(h) || this.suffixes.some((s) => h.endsWith(s));
  }

  /** An address inside one of the allowed blocks (an IPv4-mapped IPv6 address matches IPv4 blocks). */
  allowsIp(ip: string): boolean {
    let a = parseIp(ip);
    if (!a) return false;
    if (a.kind() === 'ipv6' && (a as IPv6).isIPv4MappedAddress()) a = (a as IPv6).toIPv4Address();
    return this.nets.some(([net, bits]) => net.kind() === a!.kind() && a!.match(net, bits));
  }
}

/** TESSERA_OUTBOUND_ALLOW: comma- or space-separated entries; an invalid entry throws. */
export function parseAllowList(spec: string | undefined): string[] {
  const entries = (spec ?? '').split(/[\s,]+/).filter(Boolean);
  new AllowList(entries);
  return entries;
}
