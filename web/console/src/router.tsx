import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './routes';

/**
 * Navigation inside the console without reloading the page: the History API, so that every page has its own
 * address (a reload or a shared link opens it again) and Back works.
 */
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}
window.addEventListener('popstate', notify);

export function currentRoute(): Route {
  return parseRoute(window.location.pathname, window.location.search);
}

export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  notify();
}

/** The page the address names, updated on every navigation. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const listener = () => setRoute(currentRoute());
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return route;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children: ComponentChildren };

/** An ordinary link (middle click, Ctrl+click and "open in a new tab" keep working) that navigates in place. */
export function Link(props: LinkProps) {
  const { href, children, ...rest } = props;
  const click = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={href} onClick={click}>
      {children}
    </a>
  );
}
