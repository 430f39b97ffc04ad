/**
 * What `compute` gave for each key, remembered until the map holds `max` entries, then forgotten
 * all at once: memory stays bounded whatever the corpus, with no bookkeeping on a hit. `keyOf`
 * stores the key (ownString, where keys are slices of long texts the map must not keep alive).
 */
export class ForgetfulMap<V> {
  private readonly values = new Map<string, V>();

  constructor(
    private readonly max: number,
    private readonly keyOf: (key: string) => string = (key) => key,
  ) {}

  get(key: string, compute: (key: string) => V): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = compute(key);
      if (this.values.size >= this.max) this.values.clear();
      this.values.set(this.keyOf(key), value);
    }
    return value;
  }
}
