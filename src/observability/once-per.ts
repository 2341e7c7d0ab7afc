/**
 * `make(key)`, made once per key object and kept as long as the key lives: what a drain hands each
 * of a generation's destinations (the same generation object), or what a destination's rules
 * compile to, is made once however often it is asked for.
 */
export function oncePer<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = make(key)));
    return value;
  };
}
