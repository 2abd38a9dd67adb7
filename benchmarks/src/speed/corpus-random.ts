/**
 * The seeded randomness every part of the synthetic corpus draws from: per-index PRNG streams,
 * Gaussian vectors and normalisation. Shared by the corpus, its queries and its word embedders so
 * that each of them stays reproducible from (seed, index) alone.
 */

/** A 32-bit hash of (seed, index, stream) (murmur3's finaliser), so neighbouring indexes get
 *  unrelated PRNG streams. */
export function mixSeed(seed: number, index: number, stream: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(stream, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Fills `out` with normal draws of standard deviation `scale` (Box–Muller, two per pair of uniforms). */
export function fillGaussian(out: Float32Array | Float64Array, random: () => number, scale: number): void {
  for (let d = 0; d < out.length; d += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - random())) * scale;
    const angle = 2 * Math.PI * random();
    out[d] = r * Math.cos(angle);
    if (d + 1 < out.length) out[d + 1] = r * Math.sin(angle);
  }
}

/** Scales `v` to unit length in place (a zero vector stays zero). */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let sum = 0;
  for (let d = 0; d < v.length; d++) sum += (v[d] as number) ** 2;
  const inv = sum === 0 ? 0 : 1 / Math.sqrt(sum);
  for (let d = 0; d < v.length; d++) v[d] = (v[d] as number) * inv;
  return v;
}

/** Dot product of two equally long vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += (a[d] as number) * (b[d] as number);
  return sum;
}
