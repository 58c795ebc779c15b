// Seeded PRNG for the sample world. Every random choice comes from here (never Math.random), and each
// part of the simulation forks its own stream by label, so changing one part does not shift the others.

function hashString(s: string): number {
  // FNV-1a, 32 bit
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** k8s generateName alphabet (no vowels, no ambiguous characters). */
const K8S_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const K8S_DIGITS = '2456789';

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | string) {
    const h = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
    this.a = h ^ 0x9e3779b9;
    this.b = hashString(`b${h}`);
    this.c = hashString(`c${h}`);
    this.d = hashString(`d${h}`) | 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** sfc32: uniform in [0, 1) */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An independent stream derived from this one's seed material and a label. */
  fork(label: string): Rng {
    return new Rng(`${this.a}:${this.b}:${this.c}:${this.d}:${label}`);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** integer in [min, max] */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** k distinct items, in input order */
  sample<T>(items: readonly T[], k: number): T[] {
    const idx = items.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    return idx.slice(0, Math.min(k, items.length)).sort((x, y) => x - y).map((i) => items[i]);
  }

  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(this.next() * 16)];
    return s;
  }

  /** a Kubernetes-style random suffix; always holds a digit so noise normalisers recognise it */
  k8sSuffix(n = 5): string {
    let s = '';
    for (let i = 0; i < n; i++) s += K8S_ALPHABET[Math.floor(this.next() * K8S_ALPHABET.length)];
    if (!/[0-9]/.test(s)) {
      const at = Math.floor(this.next() * n);
      s = s.slice(0, at) + K8S_DIGITS[Math.floor(this.next() * K8S_DIGITS.length)] + s.slice(at + 1);
    }
    return s;
  }

  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[Math.floor(this.next() * 4)];
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  ip(prefix = '10.0'): string {
    return `${prefix}.${this.int(1, 254)}.${this.int(2, 254)}`;
  }
}
