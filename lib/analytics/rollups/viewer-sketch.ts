import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";

// Unique viewers over rollups: a HyperLogLog sketch (Flajolet et al., 2007) with 2^12 registers
// (standard error about 1.6 %), kept as the exact set of hashes while it holds at most
// exactLimit of them, so small counts (a test's, a quiet day's) are exact. Sketches merge by
// union, which is what a window of several days, or several filter values, needs.

const precision = 12;
const registerCount = 1 << precision;
/** An exact sketch holds at most this many hashes (8 bytes each: as large as the dense form's half). */
const exactLimit = 256;
const exactTag = 1;
const denseTag = 2;

/** A viewer's 64-bit hash as two unsigned 32-bit halves. */
type Hash = readonly [high: number, low: number];

/** The rollup job adds a session's viewer to every cube row of its day (32): hashed once, not 32 times. */
const recentHashes = new LRUCache<string, Hash>({ max: 50_000 });

export class ViewerSketch {
  /** Hash → halves, while exact; null once dense. */
  private exact: Map<string, Hash> | null = new Map();
  private registers: Uint8Array | null = null;

  /** Adds a viewer by its key (viewer hash or session id). */
  add(viewerKey: string): void {
    let halves = recentHashes.get(viewerKey);
    if (!halves) {
      const digest = hash("md5", viewerKey, "buffer");
      halves = [digest.readUInt32BE(0), digest.readUInt32BE(4)];
      recentHashes.set(viewerKey, halves);
    }
    this.addHash(halves);
  }

  /** Adds everything `other` holds. */
  merge(other: ViewerSketch): void {
    if (other.exact) for (const hash of other.exact.values()) this.addHash(hash);
    else {
      const registers = this.densify();
      other.registers!.forEach((rank, index) => {
        if (rank > registers[index]!) registers[index] = rank;
      });
    }
  }

  /** How many distinct viewers were added: exact while the sketch is, else HyperLogLog's estimate. */
  count(): number {
    if (this.exact) return this.exact.size;
    const registers = this.registers!;
    let sum = 0;
    let zeros = 0;
    for (const rank of registers) {
      sum += 2 ** -rank;
      if (rank === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / registerCount);
    const estimate = (alpha * registerCount * registerCount) / sum;
    // Linear counting is the better estimate while many registers are still empty.
    if (estimate <= 2.5 * registerCount && zeros > 0) return Math.round(registerCount * Math.log(registerCount / zeros));
    return Math.round(estimate);
  }

  isEmpty(): boolean {
    return this.exact !== null && this.exact.size === 0;
  }

  /** The stored form: a tag byte, then the hashes (exact) or the registers (dense). */
  toBytes(): Buffer {
    if (!this.exact) return Buffer.concat([Buffer.of(denseTag), this.registers!]);
    const bytes = Buffer.alloc(1 + 8 * this.exact.size);
    bytes[0] = exactTag;
    let offset = 1;
    for (const [high, low] of this.exact.values()) {
      bytes.writeUInt32BE(high, offset);
      bytes.writeUInt32BE(low, offset + 4);
      offset += 8;
    }
    return bytes;
  }

  /** A sketch from its stored form; an empty one from null. Throws on bytes that are no sketch. */
  static fromBytes(bytes: Uint8Array | null): ViewerSketch {
    const sketch = new ViewerSketch();
    if (!bytes || bytes.length === 0) return sketch;
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view[0] === denseTag && view.length === 1 + registerCount) {
      sketch.exact = null;
      sketch.registers = new Uint8Array(view.subarray(1));
    } else if (view[0] === exactTag && (view.length - 1) % 8 === 0) {
      for (let offset = 1; offset < view.length; offset += 8) sketch.addHash([view.readUInt32BE(offset), view.readUInt32BE(offset + 4)]);
    } else throw new RangeError(`Not a viewer sketch (tag ${view[0]}, ${view.length} bytes)`);
    return sketch;
  }

  private addHash(hash: Hash): void {
    if (this.exact) {
      this.exact.set(`${hash[0]}:${hash[1]}`, hash);
      if (this.exact.size <= exactLimit) return;
      this.densify();
      return;
    }
    addToRegisters(this.registers!, hash);
  }

  private densify(): Uint8Array {
    if (this.registers) return this.registers;
    const registers = new Uint8Array(registerCount);
    for (const hash of this.exact!.values()) addToRegisters(registers, hash);
    this.exact = null;
    this.registers = registers;
    return registers;
  }
}

/** The first `precision` bits pick the register; it keeps the largest rank (leading zeros + 1) of the other 52. */
function addToRegisters(registers: Uint8Array, [high, low]: Hash): void {
  const index = high >>> (32 - precision);
  const rest = (high << precision) >>> 0; // the high word's remaining 20 bits, left-aligned
  const rank = rest !== 0 ? Math.clz32(rest) + 1 : low !== 0 ? 32 - precision + Math.clz32(low) + 1 : 64 - precision + 1;
  if (rank > registers[index]!) registers[index] = rank;
}
