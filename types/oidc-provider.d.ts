// The little of `oidc-provider` (a test dependency, shipped without types) that
// testing/oidc-provider.ts uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type Account = { accountId: string; claims: () => Promise<Record<string, unknown>> };
  type Context = { method: string; path: string; status: number; body: unknown; oidc?: { client?: { clientId: string } } };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount?: (ctx: Context, accountId: string) => Promise<Account | undefined> });
    use(middleware: (ctx: Context, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
