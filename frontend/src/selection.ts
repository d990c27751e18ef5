/** Where readers may highlight text to ask about it: the rendered doc, not navbar/sidebar/panel. */
export const DEFAULT_CONTENT_SELECTOR = '.theme-doc-markdown';

const MAX_SELECTION = 10000;

/**
 * Returns the selected text when the selection starts inside the doc content, else null.
 * Only `startContainer` is tested: a triple-click selection ends at the start of the next block,
 * so its common ancestor can be far outside the paragraph the reader picked.
 */
export function docSelectionText(selection: Selection | null, contentSelector = DEFAULT_CONTENT_SELECTOR): string | null {
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  const start = range.startContainer;
  const element = start.nodeType === 1 ? (start as Element) : start.parentElement;
  if (!element || !element.closest(contentSelector) || element.closest('.bookchat-root')) return null;
  const text = selection.toString().replace(/\s+\n/g, '\n').trim();
  if (!text) return null;
  return text.length > MAX_SELECTION ? text.slice(0, MAX_SELECTION) : text;
}
