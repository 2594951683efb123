/**
 * Job ids as the service makes them since 2025-11-27: UUID version 7 (RFC 9562 §5.7), the creation time in
 * milliseconds in the first 48 bits, then the version, 74 random bits and the variant. Written here rather than
 * taken from the `uuid` package: Node 20's `crypto` has `randomUUID` (version 4) only, and the layout is a few bit
 * operations over `randomFillSync`, not worth a dependency of the package.
 */
import { randomFillSync } from 'node:crypto';

/** A UUID version 7 for a job created at `ms` (milliseconds since 1970). */
export function jobId(ms: number): string {
  const bytes = randomFillSync(new Uint8Array(16));
  let time = Math.max(0, Math.min(Math.floor(ms), 2 ** 48 - 1));
  for (let i = 5; i >= 0; i -= 1) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
