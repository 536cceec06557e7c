import { deadlineExceeded, DomainError, unavailable } from '../errors/domain-error';
import { decodeGrpcError } from './error-codec';

export interface CallDependencyOptions {
  /**
   * Raise the dependency's own errors again as this service's (same kind, message, errorIds and reason): for a call whose errors are the answer the client must see. By default they travel on as gRPC
   * errors for the use case to translate (an untranslated one becomes INTERNAL at this service's edge).
   */
  forwardOwnErrors?: boolean;
}

/**
 * A call to another service. A dependency that could not answer (a deadline, a refused connection, an open
 * breaker: no error of its own) becomes this service's own 504 or 503, naming the dependency and not its
 * address.
 */
export async function callDependency<T>(
  dependency: string,
  call: () => Promise<T>,
  options: CallDependencyOptions = {},
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const decoded = decodeGrpcError(err);
    if (decoded.kind !== undefined) {
      if (!options.forwardOwnErrors) throw err;
      throw new DomainError(decoded.kind, decoded.message, {
        errorIds: decoded.errorIds,
        ...(decoded.reason !== undefined ? { reason: decoded.reason } : {}),
      });
    }
    if (decoded.codeName === 'DEADLINE_EXCEEDED')
      throw deadlineExceeded(`The ${dependency} service did not answer in time`);
    if (decoded.codeName === 'UNAVAILABLE') throw unavailable(`The ${dependency} service is unavailable`);
    throw err;
  }
}
