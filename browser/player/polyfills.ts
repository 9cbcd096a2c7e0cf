// shared/templates/bindings.ts uses structuredClone and Object.hasOwn, which browsers the
// bundle targets (Chrome 80+, Safari 13+) gained only in 2021–22. The animation is plain JSON, so
// a JSON round trip clones it exactly.

export function installPolyfills(): void {
  if (typeof Object.hasOwn !== "function") {
    Object.defineProperty(Object, "hasOwn", {
      value: (object: object, key: PropertyKey) => Object.prototype.hasOwnProperty.call(object, key),
      configurable: true,
      writable: true,
    });
  }
  if (typeof globalThis.structuredClone !== "function") {
    globalThis.structuredClone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  }
}
