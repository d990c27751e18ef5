import {forwardRef} from 'react';
import {fill, useLabels} from '../labels';

/** The button that opens the chat panel. */
export const Launcher = forwardRef<HTMLButtonElement, {onClick: () => void; expanded: boolean; shortcut?: string}>(function Launcher(
  {onClick, expanded, shortcut},
  ref,
) {
  const labels = useLabels();
  return (
    <button
      ref={ref}
      type="button"
      className="bookchat-launcher"
      onClick={onClick}
      aria-expanded={expanded}
      aria-controls="bookchat-panel"
      aria-keyshortcuts={shortcut ? shortcut.replace('⌘', 'Meta+') : undefined}
      title={shortcut ? fill(labels.launcherShortcut, {shortcut}) : undefined}
      aria-label={labels.launcher}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm3 5v2h10V9H7zm0 4v2h7v-2H7z" />
      </svg>
      <span className="bookchat-launcher-label">{labels.launcher}</span>
    </button>
  );
});
