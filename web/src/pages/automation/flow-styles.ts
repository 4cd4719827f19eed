let loaded: Promise<void> | undefined;

/**
 * The canvas's stylesheet (React Flow's own rules and the builder's, web/src/pages/automation/flow-canvas.css,
 * built as assets/flow-canvas.css), linked when the builder first loads so the dashboard's first load
 * carries none of it. Settles once the rules apply: the canvas measures itself as it appears, and fits
 * the flow to that size.
 */
export function canvasStyles(): Promise<void> {
  loaded ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = '/assets/flow-canvas.css';
    link.onload = () => resolve();
    link.onerror = () => resolve(); // the builder still works, unstyled, rather than never showing
    document.head.append(link);
  });
  return loaded;
}
