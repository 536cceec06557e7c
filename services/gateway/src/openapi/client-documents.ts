import { openApiDocument } from './document';

type Document = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

/** The base URL written into the client documents' servers; a client is always given its own. */
const PLACEHOLDER_BASE = 'http://localhost:8080';

/**
 * The served document split by server, for the typed client (packages/client): `rest-v2` (the paths under the
 * default server) and `admin` (the admin API's). Each keeps every component, so that references resolve; the
 * generator emits only what paths use plus the named schemas. The OAuth token and upload URLs are left out:
 * the client takes upload URLs from answers and tokens from the OAuth endpoint is the integrator's choice.
 */
export function clientDocuments(): Record<'rest-v2' | 'admin', Document> {
  const served = openApiDocument(PLACEHOLDER_BASE) as Document;
  const pick = (keep: (servers: unknown) => boolean, server: string): Document => ({
    ...served,
    servers: [{ url: server }],
    paths: Object.fromEntries(
      Object.entries(served.paths)
        .filter(([, item]) => keep(item.servers))
        .map(([path, item]) => {
          const { servers: _servers, ...rest } = item;
          return [path, rest];
        }),
    ),
  });
  const adminServer = `${PLACEHOLDER_BASE}/rest/admin/v1`;
  const isAdmin = (servers: unknown) =>
    Array.isArray(servers) && (servers as { url: string }[]).some((s) => s.url === adminServer);
  return {
    'rest-v2': pick((servers) => servers === undefined, `${PLACEHOLDER_BASE}/rest/v2`),
    admin: pick(isAdmin, adminServer),
  };
}
