import type { Verification } from '../api';
import type { Start } from '../start';

/**
 * Inside an embedding (embed.js): tells the merchant's page where the verification is. Messages go only to the
 * origin embed.js named, and the browser drops them if the parent is not that origin; the gateway lets only the
 * program's listed origins frame the page at all (frame-ancestors). No personal data is sent.
 */
export function announce(start: Start, verification: Verification): void {
  if (!start.parentOrigin || window.parent === window) return;
  const message = {
    type: 'eligo:verification',
    verificationId: verification.verificationId,
    currentStep: verification.currentStep,
    segment: verification.segment ?? null,
    errorIds: verification.errorIds ?? [],
    ...(verification.currentStep === 'success' ? { rewardCode: verification.rewardCode ?? null } : {}),
  };
  try {
    window.parent.postMessage(message, start.parentOrigin);
  } catch {
    // An origin that is not one (a malformed parentOrigin): nothing to tell.
  }
}

/** Keeps an inline iframe as tall as the form (the merchant's page resizes it on these messages). */
export function reportHeight(start: Start): void {
  if (!start.parentOrigin || window.parent === window || typeof ResizeObserver === 'undefined') return;
  const origin = start.parentOrigin;
  new ResizeObserver(() => {
    try {
      window.parent.postMessage(
        { type: 'eligo:resize', height: document.documentElement.scrollHeight },
        origin,
      );
    } catch {
      // see announce()
    }
  }).observe(document.body);
}
