// deal.js: deal a bundle deck for a seed, exactly as questc does (`questc layout --seed N`).
//
// questc deals with Python's `random.Random(seed)`: the Mersenne Twister MT19937, seeded
// by `init_by_array` with the seed's 32-bit words, and `shuffle`, which draws
// j = randbelow(i + 1) for i from the last index down to 1 (randbelow(n): take the top
// bit_length(n) bits of a 32-bit output, again until below n). This module reproduces
// both, so a front end deals the same order as the compiler for every seed
// (docs/bundle.md, "Decks").

const N = 624, M = 397;

export class PythonRandom {
  constructor(seed) {
    this.mt = new Uint32Array(N);
    this.mti = N + 1;
    let s = BigInt(Math.abs(Number(seed)));
    const key = [];
    while (s > 0n) { key.push(Number(s & 0xffffffffn)); s >>= 32n; }
    if (!key.length) key.push(0);
    this._initByArray(key);
  }

  _initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = N;
  }

  _initByArray(key) {
    const mt = this.mt;
    this._initGenrand(19650218);
    let i = 1, j = 0;
    for (let k = Math.max(N, key.length); k; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++; j++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
  }

  uint32() {
    const mt = this.mt;
    if (this.mti >= N) {
      let k = 0;
      for (; k < N - M; k++) {
        const y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7fffffff);
        mt[k] = mt[k + M] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      for (; k < N - 1; k++) {
        const y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7fffffff);
        mt[k] = mt[k + (M - N)] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      const y = (mt[N - 1] & 0x80000000) | (mt[0] & 0x7fffffff);
      mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++];
    y ^= y >>> 11;
    y = (y ^ ((y << 7) & 0x9d2c5680)) >>> 0;
    y = (y ^ ((y << 15) & 0xefc60000)) >>> 0;
    return (y ^ (y >>> 18)) >>> 0;
  }

  /** Python's getrandbits(k) for 0 < k <= 32. */
  bits(k) { return this.uint32() >>> (32 - k); }

  /** Python's _randbelow(n), n >= 1. */
  below(n) {
    const k = 32 - Math.clz32(n);
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return r;
  }

  /** Python's shuffle, in place. */
  shuffle(list) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  }
}

/** One draw order of `deck` (a bundle `decks` entry), top card first, for `seed`.
 *  Exploration: the start card, then each stack (`stacks[k].size` ordinary cards dealt
 *  from the shuffled `ordinary` cards, plus its main card, shuffled). Other decks: `cards` shuffled. */
export function deal(deck, seed) {
  const rng = new PythonRandom(seed);
  if (deck.kind !== "exploration") return rng.shuffle([...(deck.pool || deck.cards)]);
  const pool = rng.shuffle([...(deck.pool || deck.ordinary)]);
  const order = deck.start ? [deck.start] : [];
  let at = 0;
  for (const stack of deck.stacks) {
    const part = pool.slice(at, at + stack.size);
    at += stack.size;
    if (stack.main) part.push(stack.main);
    order.push(...rng.shuffle(part));
  }
  return order;
}

/** The cards actually played: up to and including the highest-numbered main card. */
export function playable(deck, order) {
  const numbers = Object.keys(deck.mains || {}).map(Number);
  if (!numbers.length) return order;
  const final = deck.mains[String(Math.max(...numbers))];
  const at = order.indexOf(final);
  return at >= 0 ? order.slice(0, at + 1) : order;
}
