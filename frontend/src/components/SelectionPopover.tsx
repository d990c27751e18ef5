import React, {useEffect, useState} from 'react';
import {useLabels} from '../labels';
import {DEFAULT_CONTENT_SELECTOR, docSelectionText} from '../selection';

interface Anchor {
  text: string;
  top: number;
  left: number;
}

/** Shows "Ask about this" next to a selection made inside the doc content. */
export function SelectionPopover({
  onAsk,
  contentSelector = DEFAULT_CONTENT_SELECTOR,
}: {
  onAsk: (text: string) => void;
  contentSelector?: string;
}): React.JSX.Element | null {
  const labels = useLabels();
  const [anchor, setAnchor] = useState<Anchor | null>(null);

  useEffect(() => {
    // Measure after the gesture ends (mouseup/keyup), not on every selectionchange while dragging.
    const update = () => {
      const selection = window.getSelection();
      const text = docSelectionText(selection, contentSelector);
      if (!text || !selection) {
        setAnchor(null);
        return;
      }
      const range = selection.getRangeAt(0);
      const rects = typeof range.getClientRects === 'function' ? Array.from(range.getClientRects()) : [];
      const rect = rects.find((r) => r.width > 0) ?? (typeof range.getBoundingClientRect === 'function' ? range.getBoundingClientRect() : null);
      const top = rect ? rect.top + window.scrollY - 44 : window.scrollY + 80;
      const left = rect ? rect.left + window.scrollX : 16;
      setAnchor({
        text,
        top: Math.max(window.scrollY + 4, top),
        left: Math.min(Math.max(8, left), window.scrollX + document.documentElement.clientWidth - 160),
      });
    };
    const later = () => setTimeout(update, 0);
    const onSelectionChange = () => {
      if (!window.getSelection() || window.getSelection()!.isCollapsed) setAnchor(null);
    };
    document.addEventListener('mouseup', later);
    document.addEventListener('keyup', later);
    document.addEventListener('touchend', later);
    document.addEventListener('selectionchange', onSelectionChange);
    return () => {
      document.removeEventListener('mouseup', later);
      document.removeEventListener('keyup', later);
      document.removeEventListener('touchend', later);
      document.removeEventListener('selectionchange', onSelectionChange);
    };
  }, [contentSelector]);

  if (!anchor) return null;
  return (
    <button
      type="button"
      className="bookchat-ask-selection bookchat-root"
      style={{top: anchor.top, left: anchor.left}}
      // Keep the selection alive: a mousedown on a button would otherwise collapse it.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => {
        onAsk(anchor.text);
        setAnchor(null);
      }}>
      {labels.askAboutThis}
    </button>
  );
}
