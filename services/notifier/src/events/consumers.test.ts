import { verificationEventsV1 } from '@eligo/proto';
import { eventType } from '@eligo/runtime';
import type { AppContext } from '../app/context';
import { notifierConsumers } from './consumers';

/**
 * Every step change of every verification reaches the optional-notifications consumer; only those that stand
 * for a notification are accepted (the others are ignored without a transaction or an inbox row).
 */
describe('the optional-notifications consumer', () => {
  const consumer = notifierConsumers({} as AppContext).find((c) => c.name === 'verification-notifications')!;
  const handler = consumer.handlers[eventType('verification', 'VerificationStepChanged')]!;
  const change = (previousStep: string, currentStep: string, errorIds: string[] = []) =>
    verificationEventsV1.VerificationStepChanged.fromPartial({ previousStep, currentStep, errorIds });

  it('accepts the step changes that are notifications and ignores the others', () => {
    expect(handler.accepts?.(change('pending', 'docUpload'))).toBe(true);
    expect(handler.accepts?.(change('pending', 'error', ['docReviewLimitExceeded']))).toBe(true);
    expect(handler.accepts?.(change('collectStudentPersonalInfo', 'success'))).toBe(false);
    expect(handler.accepts?.(change('', 'collectStudentPersonalInfo'))).toBe(false);
    expect(handler.accepts?.(change('collectStudentPersonalInfo', 'error', ['noMatch']))).toBe(false);
  });
});
