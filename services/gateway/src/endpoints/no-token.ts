type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The path items of the definitions, an operation that takes no token (`security: []`) stated without
 * `security`, as the hand-written document stated such operations: the document's own requirement (none)
 * applies, the same for clients, and the document's checks read an operation's `security` as "takes a
 * token" (openapi/document.test.ts). A definition always has its requirements and endpoints/openapi.ts
 * always states them; to fold into the framework as an optional `security`.
 */
export function withoutEmptySecurity(paths: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const copy: Json = { ...item };
      for (const method of METHODS) {
        const operation = copy[method] as Json | undefined;
        if (Array.isArray(operation?.security) && operation.security.length === 0) {
          const { security: _none, ...rest } = operation;
          copy[method] = rest;
        }
      }
      return [path, copy];
    }),
  );
}
