/**
 * The validating proxy's bound on what it holds for checking at once, over all exchanges (request bodies, the
 * answers' copies, compressed and decoded): what is taken is given back when the exchange is done with it.
 */
export class HeldBytes {
  private held = 0;
  constructor(private readonly limit: number) {}
  /** Whether `bytes` more fit; if they do, they are taken. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }
  give(bytes: number): void {
    this.held -= bytes;
  }
}
