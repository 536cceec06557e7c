import { decodeGrpcError, type DecodedGrpcError } from '@eligo/runtime';

/** The decoded error of a call that must fail (the test fails if it succeeds). */
export async function failure(call: Promise<unknown>): Promise<DecodedGrpcError> {
  try {
    await call;
  } catch (err) {
    return decodeGrpcError(err);
  }
  throw new Error('expected the call to fail, but it succeeded');
}
