"use strict";
/**
 * The console's stand-in for the `side-channel` package, which `qs` (Refine's URL sync) needs
 * for cycle detection and bookkeeping. The package picks among WeakMap, Map and list channels
 * and describes missing keys with `object-inspect` and `get-intrinsic`: ~7 kB gzip of the first
 * console screen for what a WeakMap (object keys) beside a Map (other keys) does in every
 * browser the console supports. Same interface: assert, delete, get, has, set.
 */
module.exports = function getSideChannel() {
  const objects = new WeakMap();
  const others = new Map();
  const store = (key) =>
    key !== null && (typeof key === "object" || typeof key === "function") ? objects : others;
  const channel = {
    assert(key) {
      if (!channel.has(key)) throw new TypeError("Side channel does not contain the given key");
    },
    delete: (key) => store(key).delete(key),
    get: (key) => store(key).get(key),
    has: (key) => store(key).has(key),
    set(key, value) {
      store(key).set(key, value);
    },
  };
  return channel;
};
