import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

/** How close to the bottom (px) still counts as reading the newest message. */
const NEAR_BOTTOM = 120;

/**
 * Keeps a thread where people read it: at the newest message when it opens, still there when a new
 * message arrives while they are at the bottom, and on the same message when earlier history is
 * added above (the page grows upward instead of jumping). The page itself scrolls; the reply box is
 * sticky at its bottom.
 */
export function useThreadScroll(contactId: string, ids: string[]): void {
  const root = document.scrollingElement ?? document.documentElement;
  // Measured while rendering, i.e. before the new messages reach the DOM.
  const before = {
    height: root.scrollHeight,
    atBottom: root.scrollHeight - root.scrollTop - root.clientHeight < NEAR_BOTTOM,
  };
  const shown = useRef<{ contactId: string; first?: string; last?: string } | null>(null);
  const first = ids[0];
  const last = ids.at(-1);
  useLayoutEffect(() => {
    const previous = shown.current;
    shown.current = { contactId, first, last };
    if (!last) return;
    const bottom = () => root.scrollTo(0, root.scrollHeight);
    if (previous?.contactId !== contactId || !previous.last) bottom();
    else if (previous.last === last && previous.first !== first) root.scrollBy(0, root.scrollHeight - before.height);
    else if (previous.last !== last && before.atBottom) bottom();
  }, [contactId, first, last]);
}

/** Calls `load` whenever `target` scrolls into view (the "earlier messages" button at the top). */
export function useWhenVisible(target: { current: Element | null }, load: () => void, active: boolean): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    if (!active || !target.current) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) latest.current();
    });
    observer.observe(target.current);
    return () => observer.disconnect();
  }, [active, target.current]);
}
