import {forwardRef} from 'react';

/** The button that opens the chat panel. */
export const Launcher = forwardRef<HTMLButtonElement, {onClick: () => void; expanded: boolean}>(function Launcher(
  {onClick, expanded},
  ref,
) {
  return (
    <button
      ref={ref}
      type="button"
      className="bookchat-launcher"
      onClick={onClick}
      aria-expanded={expanded}
      aria-controls="bookchat-panel"
      aria-label="Ask the book">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm3 5v2h10V9H7zm0 4v2h7v-2H7z" />
      </svg>
      <span className="bookchat-launcher-label">Ask the book</span>
    </button>
  );
});
