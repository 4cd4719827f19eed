import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './i18n/i18n';

const CHANGE = 'parley:navigate';

/** Moves to a dashboard path without reloading (history API; every path is served index.html). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  dispatchEvent(new Event(CHANGE));
}

/** The current location (path and query), re-rendering on navigation and the back button. */
export function useLocation(): URL {
  const [href, setHref] = useState(location.href);
  useEffect(() => {
    const update = () => setHref(location.href);
    addEventListener('popstate', update);
    addEventListener(CHANGE, update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener(CHANGE, update);
    };
  }, []);
  return new URL(href);
}

type LinkProps = JSX.HTMLAttributes<HTMLAnchorElement> & { href: string; children: ComponentChildren };

/** An ordinary link (open in a new tab works) that navigates in place on a plain click. */
export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}

/**
 * A route's page whose code is fetched on its first visit (esbuild puts each dynamic import in its own
 * chunk), so the JavaScript a first load fetches stays small however many pages the dashboard grows.
 */
export function lazy<M>(
  load: () => Promise<M>,
  render: (module: M, params: string[], url: URL) => ComponentChildren,
): Route['render'] {
  let loaded: M | undefined;
  let pending: Promise<M> | undefined;
  function LazyPage({ params, url }: { params: string[]; url: URL }) {
    const [module, setModule] = useState(loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (module) return;
      (pending ??= load()).then(
        (m) => setModule((loaded = m)),
        () => {
          pending = undefined;
          setFailed(true);
        },
      );
    }, [module]);
    if (failed) {
      return (
        <p role="alert" class="page">
          {t('shell:pageNotLoaded')}
        </p>
      );
    }
    return module ? <>{render(module, params, url)}</> : <p class="page" aria-busy="true" />;
  }
  return (params, url) => <LazyPage params={params} url={url} />;
}

export interface Route {
  pattern: RegExp;
  render: (params: string[], url: URL) => ComponentChildren;
}

/** The first route whose pattern matches the path; its groups are the params. */
export function match(routes: Route[], url: URL): ComponentChildren | null {
  for (const route of routes) {
    const found = route.pattern.exec(url.pathname);
    if (found) return route.render(found.slice(1).map(decodeURIComponent), url);
  }
  return null;
}
