import { isDomainError, type DomainError } from '@eligo/runtime';

/** The domain error `fn` throws (fails the test when it throws nothing or something else). */
export function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (isDomainError(err)) return err;
    throw err;
  }
  throw new Error('expected a domain error, nothing was thrown');
}

/** Asserts INVALID_ARGUMENT invalidRequest with exactly this message. */
export function expectInvalid(fn: () => unknown, message: string): void {
  const err = thrown(fn);
  expect({ kind: err.kind, errorIds: err.errorIds, message: err.message }).toEqual({
    kind: 'invalidArgument',
    errorIds: ['invalidRequest'],
    message,
  });
}

/** The domain error `promise` rejects with (fails the test when it resolves or rejects with something else). */
export async function rejected(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (isDomainError(err)) return err;
    throw err;
  }
  throw new Error('expected a domain error, the promise resolved');
}

/** Asserts that `promise` rejects with INVALID_ARGUMENT invalidRequest with exactly this message. */
export async function expectRejectedInvalid(promise: Promise<unknown>, message: string): Promise<void> {
  const err = await rejected(promise);
  expect({ kind: err.kind, errorIds: err.errorIds, message: err.message }).toEqual({
    kind: 'invalidArgument',
    errorIds: ['invalidRequest'],
    message,
  });
}
