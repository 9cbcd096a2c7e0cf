import { randomBytes } from "node:crypto";
import { v7 } from "uuid";

// Recipient ids are UUIDv7: time-ordered, so the primary key lists a campaign's recipients in the
// order they were first imported (file order, later imports after) without another index on the
// import's hot path (docs/adr/0147-recipient-order-and-edits.md).

/** The last id's millisecond and counter: each id is greater than the one before, within a millisecond too. */
const state = { msecs: -Infinity, seq: 0 };

/**
 * `count` new ids, each greater than every id this process made before. uuid's own v7() keeps the
 * same state but asks crypto.getRandomValues for every id (~20 µs each on a busy machine, 20 s a
 * million rows); here one randomBytes call serves the whole batch, as for the tokens.
 */
export function recipientIds(count: number): string[] {
  const random = randomBytes(16 * count);
  const ids: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const bytes = random.subarray(i * 16, i * 16 + 16);
    const now = Date.now();
    if (now > state.msecs) {
      // A fresh millisecond starts its counter at a random 31-bit value, as uuid's v7 does.
      state.msecs = now;
      state.seq = ((bytes[6]! & 0x7f) << 24) | (bytes[7]! << 16) | (bytes[8]! << 8) | bytes[9]!;
    } else {
      state.seq = (state.seq + 1) | 0;
      if (state.seq === 0) state.msecs++;
    }
    ids[i] = v7({ msecs: state.msecs, seq: state.seq, random: bytes });
  }
  return ids;
}
