import React, {forwardRef, useState} from 'react';
import {useLabels} from '../labels';

/** Props of Composer. */
export interface ComposerProps {
  busy: boolean;
  quote: string | null;
  onRemoveQuote: () => void;
  onSend: (question: string) => void;
  onStop: () => void;
}

const MAX_QUESTION = 2000;

/** The question box: Enter sends, Shift+Enter adds a line; shows the quoted selection if any. */
export const Composer = forwardRef<HTMLTextAreaElement, ComposerProps>(function Composer(
  {busy, quote, onRemoveQuote, onSend, onStop},
  ref,
) {
  const labels = useLabels();
  const [text, setText] = useState('');
  const canSend = !busy && (text.trim() !== '' || quote !== null);
  const submit = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText('');
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an IME is composing confirms the composition, it must not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <form
      className="bookchat-composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}>
      {quote !== null ? (
        <div className="bookchat-composer-quote">
          <blockquote className="bookchat-quote" aria-label={labels.selectedText}>{quote}</blockquote>
          <button type="button" className="bookchat-btn bookchat-btn-small" onClick={onRemoveQuote} aria-label={labels.removeQuoteHint}>
            {labels.removeQuote}
          </button>
        </div>
      ) : null}
      <div className="bookchat-composer-row">
        <textarea
          ref={ref}
          className="bookchat-input"
          rows={2}
          maxLength={MAX_QUESTION}
          value={text}
          placeholder={quote !== null ? labels.placeholderSelection : labels.placeholder}
          aria-label={labels.yourQuestion}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {busy ? (
          <button type="button" className="bookchat-btn bookchat-btn-primary" onClick={onStop}>
            {labels.stop}
          </button>
        ) : (
          <button type="submit" className="bookchat-btn bookchat-btn-primary" disabled={!canSend}>
            {labels.send}
          </button>
        )}
      </div>
    </form>
  );
});
