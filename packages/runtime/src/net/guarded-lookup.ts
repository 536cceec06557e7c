import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { blockedRange, type AllowCidrs } from './address-policy';

/** From the guarded lookup through the request's 'error' event: the call is refused, not failed. */
export class BlockedAddressError extends Error {}

/**
 * A `lookup` for node:http(s) requests to addresses a program chose (webhook callbacks, HTTP instant-match
 * sources): it resolves names for the connection itself, so that the address judged is the address connected
 * to (no window for DNS rebinding). Refuses when ANY address of the name is blocked: a name that also points
 * inside is not a public endpoint, and which of its addresses a retry would get is not ours to predict.
 * `what` names the host in the error ("callback host"); the address itself is never repeated there.
 */
export function guardedLookup(allow: AllowCidrs, what = 'callback host'): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const range = blockedRange(address, allow);
        if (range !== undefined) {
          return callback(new BlockedAddressError(`${what} resolves to a blocked address (${range})`), []);
        }
      }
      const first = addresses[0];
      if (first === undefined)
        return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), []);
      // net asks for `all` when it races IPv4 and IPv6 (autoSelectFamily): still only the one checked address.
      if (options.all) callback(null, [first]);
      else callback(null, first.address, first.family);
    });
  };
}
