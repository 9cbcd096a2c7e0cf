import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * A mutation's onMutate/onError for a cached list: the change shows at once, and the list as it
 * was comes back if the API refuses. The caller still invalidates on settle.
 */
export function optimisticList<Item, Input>(client: QueryClient, key: QueryKey, change: (list: Item[], input: Input) => Item[]) {
  return {
    onMutate: async (input: Input) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<Item[]>(key);
      if (before) client.setQueryData(key, change(before, input));
      return { before };
    },
    onError: (_error: unknown, _input: Input, context: { before?: Item[] } | undefined) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
  };
}
