import type { ProgramsApi, Reply } from './programs-api';

/** One catalog organization as an import file row (the admin import's columns). */
export interface OrganizationFixture {
  externalId: string;
  name: string;
  type: string;
  country: string;
  domains?: string[];
  city?: string;
  state?: string;
  loginUrl?: string;
}

const columns = ['externalId', 'name', 'type', 'country', 'domains', 'city', 'state', 'loginUrl'] as const;

/** Quotes a CSV value when it needs it (RFC 4180). */
const csvValue = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function toCsv(rows: OrganizationFixture[]): string {
  const lines = rows.map((r) =>
    columns
      .map((c) => (c === 'domains' ? (r.domains ?? []).join(';') : (r[c] ?? '')))
      .map(csvValue)
      .join(','),
  );
  return `${columns.join(',')}\n${lines.join('\n')}\n`;
}

export function toNdjson(rows: object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** The organization endpoints of REST v2 and the admin API, on top of the programs helpers. */
export function organizationsApi(api: ProgramsApi) {
  const importFile = (raw: string, contentType: string): Promise<Reply> =>
    api.admin('POST', '/organizations', { raw, contentType });
  const importCsv = (rows: OrganizationFixture[]) => importFile(toCsv(rows), 'text/csv');
  const importNdjson = (rows: object[]) => importFile(toNdjson(rows), 'application/x-ndjson');
  const search = (programId: string, query: Record<string, string>) =>
    api.v2('GET', `/program/${programId}/organization?${new URLSearchParams(query)}`);
  const names = (reply: Reply): string[] => (reply.body as { name: string }[]).map((o) => o.name);
  /** Looks up an organization id by exact name through the program search. */
  const idOf = async (programId: string, name: string): Promise<number> => {
    // A 503 is the documented "retry later" (a split deployment whose dependencies are still connecting, or
    // a breaker of the organizations service towards programs waiting out its reset): retried as a client would.
    let reply = await search(programId, { name, limit: '100' });
    for (const deadline = Date.now() + 30_000; reply.status === 503 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      reply = await search(programId, { name, limit: '100' });
    }
    const found = Array.isArray(reply.body)
      ? (reply.body as { id: number; name: string }[]).find((o) => o.name === name)
      : undefined;
    if (!found) throw new Error(`${name} not found: ${reply.status} ${JSON.stringify(reply.body)}`);
    return found.id;
  };
  return { importFile, importCsv, importNdjson, search, names, idOf };
}
