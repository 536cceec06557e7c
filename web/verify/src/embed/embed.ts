/**
 * /verify/embed.js, for a merchant's page: opens Eligo's verification form in an inline iframe or a lightbox and
 * reports its progress, like SheerID's loadInlineIframe / loadInModal:
 *
 *   <script src="https://verify.example.com/verify/embed.js"></script>
 *   eligo.loadInlineIframe(programId, document.getElementById('verify'), { onStep, onSuccess, trackingId });
 *   eligo.loadInModal(programId, { onSuccess });
 *
 * Messages are accepted only from the form's own window and Eligo's origin (where this script came from).
 * The program must list the merchant's origin among its embedding origins, or the browser refuses to frame it.
 */
interface VerificationEvent {
  type: 'eligo:verification';
  verificationId: string;
  currentStep: string;
  segment: string | null;
  errorIds: string[];
  rewardCode?: string | null;
}

interface Options {
  trackingId?: string;
  locale?: string;
  /** Every step the verification reaches (the first included). */
  onStep?(event: VerificationEvent): void;
  onSuccess?(event: VerificationEvent): void;
  onError?(event: VerificationEvent): void;
  /** loadInModal: the person closed the lightbox. */
  onClose?(): void;
}

const script = document.currentScript as HTMLScriptElement | null;
const eligoOrigin = new URL(script?.src ?? window.location.href).origin;

function formUrl(programId: string, options: Options): string {
  if (!/^[0-9a-f]{24}$/.test(programId))
    throw new Error(`eligo: ${JSON.stringify(programId)} is not a program id`);
  const query = new URLSearchParams({ layout: 'embedded', parentOrigin: window.location.origin });
  if (options.trackingId) query.set('trackingId', options.trackingId);
  if (options.locale) query.set('locale', options.locale);
  return `${eligoOrigin}/verify/${programId}?${query.toString()}`;
}

function frame(programId: string, options: Options, title: string): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.src = formUrl(programId, options);
  iframe.title = title;
  iframe.setAttribute('allow', 'clipboard-write');
  iframe.style.border = '0';
  iframe.style.width = '100%';
  iframe.style.minHeight = '480px';
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== eligoOrigin || event.source !== iframe.contentWindow) return;
    const resize = event.data as { type?: string; height?: unknown } | null;
    if (resize?.type === 'eligo:resize' && typeof resize.height === 'number')
      iframe.style.height = `${Math.ceil(resize.height)}px`;
    const data = event.data as VerificationEvent | null;
    if (data?.type !== 'eligo:verification') return;
    options.onStep?.(data);
    if (data.currentStep === 'success') options.onSuccess?.(data);
    if (data.currentStep === 'error') options.onError?.(data);
    iframe.dispatchEvent(new CustomEvent('eligo:verification', { detail: data, bubbles: true }));
  };
  window.addEventListener('message', onMessage);
  return iframe;
}

function loadInlineIframe(
  programId: string,
  container: HTMLElement,
  options: Options = {},
): HTMLIFrameElement {
  const iframe = frame(programId, options, 'Verification');
  container.replaceChildren(iframe);
  return iframe;
}

function loadInModal(programId: string, options: Options = {}): { close(): void } {
  const previous = document.activeElement as HTMLElement | null;
  const overlay = document.createElement('div');
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', 'Verification');
  Object.assign(overlay.style, {
    position: 'fixed',
    inset: '0',
    background: 'rgba(0,0,0,0.55)',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    zIndex: '2147483647',
  });
  const box = document.createElement('div');
  Object.assign(box.style, {
    background: '#fff',
    width: 'min(560px, 100vw)',
    maxHeight: '100vh',
    overflow: 'auto',
    borderRadius: '8px',
    position: 'relative',
  });
  const closeButton = document.createElement('button');
  closeButton.type = 'button';
  closeButton.textContent = '×';
  closeButton.setAttribute('aria-label', 'Close');
  Object.assign(closeButton.style, { position: 'absolute', top: '4px', right: '8px', fontSize: '24px' });
  const iframe = frame(programId, options, 'Verification');
  box.append(closeButton, iframe);
  overlay.append(box);
  const close = () => {
    overlay.remove();
    document.removeEventListener('keydown', onKey);
    previous?.focus();
    options.onClose?.();
  };
  const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
  closeButton.addEventListener('click', close);
  document.addEventListener('keydown', onKey);
  document.body.append(overlay);
  iframe.focus();
  return { close };
}

(window as unknown as { eligo: unknown }).eligo = { loadInlineIframe, loadInModal };
