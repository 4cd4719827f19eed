/**
 * An import's duplicate check: each phone's first row, kept in typed arrays (open addressing). A
 * million phones take 24 MiB outside the JavaScript heap; a Map of them took twice that inside it,
 * walked again by every garbage collection until the end of the file.
 */
export class FirstRowByPhone {
  /** The phones' digits as numbers (E.164 has at most 15: exact in a double); 0 marks a free slot. */
  private keys = new Float64Array(1 << 16);
  private rows = new Uint32Array(1 << 16);
  private size = 0;

  /** The row an E.164 phone was first seen on; if none, `row` is noted as its first and undefined returned. */
  firstOrNote(phone: string, row: number): number | undefined {
    const key = Number(phone.slice(1));
    const at = this.slotOf(key);
    if (this.keys[at] === key) return this.rows[at];
    this.keys[at] = key;
    this.rows[at] = row;
    // Kept at most half full, so a probe ends after a slot or two.
    if (++this.size * 2 > this.keys.length) this.grow();
    return undefined;
  }

  /** The slot holding `key`, or the free one where it belongs. */
  private slotOf(key: number): number {
    const mask = this.keys.length - 1;
    let at = spread(key) & mask;
    while (this.keys[at] !== 0 && this.keys[at] !== key) at = (at + 1) & mask;
    return at;
  }

  private grow(): void {
    const { keys, rows } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.rows = new Uint32Array(keys.length * 2);
    keys.forEach((key, i) => {
      if (key === 0) return;
      const at = this.slotOf(key);
      this.keys[at] = key;
      this.rows[at] = rows[i]!;
    });
  }
}

/** Mixes both 32-bit halves of a phone's digits, so neighbouring numbers land far apart. */
function spread(key: number): number {
  const hash = Math.imul(key >>> 0, 0x9e3779b1) ^ Math.imul((key / 2 ** 32) >>> 0, 0x85ebca6b);
  return (hash ^ (hash >>> 15)) >>> 0;
}
