/**
 * One instance per process, kept on globalThis: Next may load a module once per route
 * bundle (and again on reload in development), and a writer, cache or client must still
 * be one.
 */
export function processWide<T>(name: string, create: () => T): T {
  const holder = globalThis as { [key: symbol]: unknown };
  const key = Symbol.for(`reelbind.${name}`);
  if (!(key in holder)) holder[key] = create();
  return holder[key] as T;
}
