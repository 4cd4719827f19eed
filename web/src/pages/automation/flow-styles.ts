/**
 * The canvas's stylesheet (React Flow's own rules and the builder's, web/src/pages/automation/flow-canvas.css,
 * built as assets/flow-canvas.css): linked when the builder first loads, so the dashboard's first load
 * carries none of it.
 */
export function loadCanvasStyles(): void {
  if (document.querySelector('link[data-flow-canvas]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/assets/flow-canvas.css';
  link.dataset.flowCanvas = '';
  document.head.append(link);
}
