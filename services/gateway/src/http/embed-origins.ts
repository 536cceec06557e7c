import { status as GrpcStatus } from '@grpc/grpc-js';
import { LRUCache } from 'lru-cache';
import type { ProgramsClient } from '../clients/programs.client';
import type { VerificationClient } from '../clients/verification.client';

/** How long a program's embedding origins are reused: a change reaches every gateway within this. */
const ORIGINS_TTL_MS = 30_000;

export interface EmbedOrigins {
  /** The program's embedding origins; null when there is no such program. */
  ofProgram(programId: string): Promise<readonly string[] | null>;
  /** The program a verification belongs to (it never changes); null when there is no such verification. */
  programOfVerification(verificationId: string): Promise<string | null>;
}

const notFound = (err: unknown) => (err as { code?: number }).code === GrpcStatus.NOT_FOUND;

/**
 * The origins a program lets embed its hosted page (frame-ancestors) and call the public REST v2 endpoints from
 * a browser (CORS), read from programs and kept briefly: a CORS preflight precedes many browser calls.
 */
export function embedOrigins(programs: ProgramsClient, verification: VerificationClient): EmbedOrigins {
  const origins = new LRUCache<string, { value: readonly string[] | null }>({
    max: 10_000,
    ttl: ORIGINS_TTL_MS,
  });
  const programsOf = new LRUCache<string, { value: string | null }>({ max: 50_000, ttl: 10 * 60_000 });
  return {
    async ofProgram(programId) {
      const cached = origins.get(programId);
      if (cached) return cached.value;
      let value: readonly string[] | null;
      try {
        const { program } = await programs.getProgram({ programId, accountId: '' });
        value = program?.embedOrigins ?? [];
      } catch (err) {
        if (!notFound(err)) throw err;
        value = null;
      }
      origins.set(programId, { value });
      return value;
    },
    async programOfVerification(verificationId) {
      const cached = programsOf.get(verificationId);
      if (cached) return cached.value;
      let value: string | null;
      try {
        value =
          (await verification.locateVerification({ key: { $case: 'verificationId', verificationId } }))
            .programId || null;
      } catch (err) {
        if (!notFound(err)) throw err;
        value = null;
      }
      programsOf.set(verificationId, { value });
      return value;
    },
  };
}
