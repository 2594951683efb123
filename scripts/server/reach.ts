/**
 * Which hosts the reference server may fetch pages from, and the addresses it may connect to.
 *
 * A host is reachable (fetched over the network, never made up) when it is loopback (127.0.0.0/8, ::1,
 * `localhost`), when `resolveHosts` maps it to an address, or when the `allow` rule says yes to it and the
 * port (`allowFetchHost`, `crawlspec serve --allow-host HOST[:PORT]`). Of loopback, with `ownPort` (the jobs'
 * fetches), only the server's own port may be connected to unless `allow` says yes to another: the others
 * are refused before any connection (`addressRefusal`), so that a fetch of one is an error of its job, which
 * says how to allow it (issue 22, finding 7: a crawl read another local service's secret, and with `--host
 * 0.0.0.0` any token holder could read services bound to loopback alone). Without `ownPort` (webhook
 * deliveries), every loopback port. The names `resolveHosts` maps are allowed on every port: the mapping is
 * the opt-in.
 *
 * Being reachable by name is not enough: the connection goes only to an address that is itself allowed.
 * Names are resolved by our own `lookup`, which node:http calls for every connection it opens, and which
 * drops every address the rule refuses; so a name that resolves to another address later (DNS rebinding), or
 * a redirect to a name that resolves inside a network the operator did not allow, is never connected to. The
 * lookup is not told the port, so it allows an address only as a whole: one `allow` says yes to on every port
 * (`allow(address, undefined)`), a loopback address when loopback may be connected to on every port, and the
 * loopback addresses of `localhost` and of a `resolveHosts` name (whose port `addressRefusal` checked). Address
 * literals (`http://10.0.0.1/`) are not looked up by node, so they are checked here before any request
 * (`addressRefusal`), port included.
 *
 * `resolveHosts` (name → address) lets test sites answer under names such as `crawlspec.example.com` and
 * `sub.crawlspec.example.com` on loopback, with no DNS and no hosts file; the address it gives is checked like
 * any other, loopback always allowed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/** Whether a host (name or bare address) is loopback: 127.0.0.0/8, ::1, `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export interface ReachOptions {
  /**
   * More hosts (names or addresses) to fetch from, on `port`; asked with `port` undefined of an address a name
   * resolved to (the lookup does not know the port): then only a host allowed on every port may be said yes to.
   */
  readonly allow?: (host: string, port: number | undefined) => boolean;
  /** Host name → IP address, used instead of DNS. */
  readonly resolveHosts?: Readonly<Record<string, string>>;
  /** The server's own port: loopback is then reachable on it alone (else on every port). */
  readonly ownPort?: () => number | undefined;
}

/** The error a lookup gives for a name whose every address is refused. */
export class RefusedAddressError extends Error {
  readonly code = 'ENOTALLOWED';
}

export interface Reach {
  /** Whether a page at `url` is fetched over the network (by its host name; addresses are checked on connect). */
  reachable(url: URL): boolean;
  /**
   * Why `url` may not be connected to, or undefined: an address literal not allowed, or a loopback port not
   * allowed (names are checked on connect: see `lookup`).
   */
  addressRefusal(url: URL): string | undefined;
  /** Resolves a name to the allowed addresses only (an error when there is none). */
  readonly lookup: LookupFunction;
}

/** A URL's host as a name or a bare address (IPv6 without brackets), lower case. */
export const bareHost = (url: URL): string => url.hostname.toLowerCase().replace(/^\[|\]$/g, '');

/** The port a URL connects to (its scheme's when it names none). */
export const portOf = (url: URL): number => (url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port));

export function createReach(options: ReachOptions = {}): Reach {
  const allow = options.allow ?? (() => false);
  const resolved = new Map(Object.entries(options.resolveHosts ?? {}).map(([name, address]) => [name.toLowerCase(), address]));
  const { ownPort } = options;
  /** Whether `host` (a name or a bare address) may be connected to on `port` (undefined: on every port). */
  const reachableAt = (host: string, port: number | undefined): boolean =>
    allow(host, port) || (isLoopbackHost(host) && (ownPort === undefined || (port !== undefined && port === ownPort())));

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    const name = hostname.toLowerCase();
    // The names whose every loopback address is allowed: `localhost` (its port was checked with the URL) and a
    // name `resolveHosts` maps (the mapping is the opt-in).
    const loopbackName = name === 'localhost' || resolved.has(name);
    const answer = (addresses: readonly LookupAddress[]): void => {
      const allowed = addresses.filter((a) => reachableAt(a.address, undefined) || (loopbackName && isLoopbackHost(a.address)));
      if (allowed.length === 0) {
        const found = addresses.map((a) => a.address).join(', ') || 'no address';
        callback(new RefusedAddressError(`${hostname} resolves to ${found}, an address this server may not connect to`), []);
      } else if (lookupOptions.all === true) callback(null, allowed);
      else callback(null, allowed[0]!.address, allowed[0]!.family);
    };
    const mapped = resolved.get(name);
    if (mapped !== undefined) return answer([{ address: mapped, family: isIP(mapped) || 4 }]);
    const family = lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family === 'IPv4' ? 4 : Number(lookupOptions.family ?? 0) || 0;
    dnsLookup(hostname, { all: true, family }, (error, addresses) => (error ? callback(error, []) : answer(addresses)));
  };

  return {
    reachable(url) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
      const host = bareHost(url);
      return isLoopbackHost(host) || resolved.has(host) || allow(host, portOf(url));
    },
    addressRefusal(url) {
      const host = bareHost(url);
      if (resolved.has(host) || reachableAt(host, portOf(url))) return undefined;
      if (isLoopbackHost(host))
        return `${url.host} is a loopback port other than this server's own, which it fetches from only when allowed (crawlspec serve --allow-host ${url.host}; allowFetchHost)`;
      return isIP(host) === 0 ? undefined : `${url.host} is an address this server may not connect to`;
    },
    lookup,
  };
}
