/**
 * Which hosts the reference server may fetch pages from, and the addresses it may connect to.
 *
 * A host is reachable when it is loopback (127.0.0.0/8, ::1, `localhost`), when the `allow` rule says yes
 * to it (`allowFetchHost`, `crawlspec serve --allow-host`), or when `resolveHosts` maps it to an address.
 * Being reachable by name is not enough: the connection goes only to an address that is itself loopback
 * or allowed. Names are resolved by our own `lookup`, which node:http calls for every connection it opens,
 * and which drops every address the rule refuses; so a name that resolves to another address later (DNS
 * rebinding), or a redirect to a name that resolves inside a network the operator did not allow, is never
 * connected to. Address literals (`http://10.0.0.1/`) are not looked up by node, so they are checked here
 * before any request (`addressRefusal`).
 *
 * `resolveHosts` (name → address) lets test sites answer under names such as `crawlspec.example.com` and
 * `sub.crawlspec.example.com` on loopback, with no DNS and no hosts file; the address it gives is checked like any
 * other.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/** Whether a host (name or bare address) is loopback: 127.0.0.0/8, ::1, `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export interface ReachOptions {
  /** More hosts (names or addresses) to fetch from, besides loopback. */
  readonly allow?: (host: string) => boolean;
  /** Host name → IP address, used instead of DNS. */
  readonly resolveHosts?: Readonly<Record<string, string>>;
}

/** The error a lookup gives for a name whose every address is refused. */
export class RefusedAddressError extends Error {
  readonly code = 'ENOTALLOWED';
}

export interface Reach {
  /** Whether a page at `url` may be fetched over the network (by its host name; addresses are checked on connect). */
  reachable(url: URL): boolean;
  /** Why the address literal host of `url` may not be connected to, or undefined (names: see `lookup`). */
  addressRefusal(url: URL): string | undefined;
  /** Resolves a name to the allowed addresses only (an error when there is none). */
  readonly lookup: LookupFunction;
}

/** A URL's host as a name or a bare address (IPv6 without brackets), lower case. */
export const bareHost = (url: URL): string => url.hostname.toLowerCase().replace(/^\[|\]$/g, '');

export function createReach(options: ReachOptions = {}): Reach {
  const allow = options.allow ?? (() => false);
  const resolved = new Map(Object.entries(options.resolveHosts ?? {}).map(([name, address]) => [name.toLowerCase(), address]));
  const allowedAddress = (address: string): boolean => isLoopbackHost(address) || allow(address);

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    const name = hostname.toLowerCase();
    const answer = (addresses: readonly LookupAddress[]): void => {
      const allowed = addresses.filter((a) => allowedAddress(a.address));
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
      return isLoopbackHost(host) || resolved.has(host) || allow(host);
    },
    addressRefusal(url) {
      const host = bareHost(url);
      if (isIP(host) === 0 || allowedAddress(host)) return undefined;
      return `${host} is an address this server may not connect to`;
    },
    lookup,
  };
}
