import { Fragment } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { SHORTCUTS } from './shortcuts';

/**
 * The keyboard shortcuts ("?"), in a modal <dialog>: the browser keeps focus inside it, Escape closes it and
 * focus returns to where it was.
 */
export function Help({ open, onClose }: { open: boolean; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={dialog} class="help" aria-labelledby="help-title" onClose={onClose}>
      <h2 id="help-title">Keyboard shortcuts</h2>
      <p class="muted">Shortcuts work when no text field has the focus.</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">What it does</th>
            <th scope="col">Where</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                {s.keys.split(' or ').map((key, i) => (
                  <Fragment key={key}>
                    {i > 0 && ' or '}
                    <kbd>{key}</kbd>
                  </Fragment>
                ))}
              </td>
              <td>{s.what}</td>
              <td>{s.where}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
