import React, {useState} from 'react';
import {useLabels, type Labels} from '../labels';
import type {Rating} from '../types';

const CHOICES: Array<{value: Rating; label: keyof Labels; icon: string}> = [
  {
    value: 'up',
    label: 'helpful',
    icon: 'M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.4-1.1L13.2 1 6.6 7.6c-.4.4-.6.9-.6 1.4v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z',
  },
  {
    value: 'down',
    label: 'notHelpful',
    icon: 'M22 3h-4v12h4V3zM2 14a2 2 0 0 0 2 2h6.3l-1 4.6v.3c0 .4.2.8.4 1.1l1.1 1 6.6-6.6c.4-.4.6-.9.6-1.4V5a2 2 0 0 0-2-2H7c-.8 0-1.5.5-1.8 1.2l-3 7.1c-.1.2-.2.5-.2.7v2z',
  },
];

/** Thumbs up/down for one answer; the choice can be changed (the last rating wins on the server). */
export function FeedbackButtons({
  rating,
  onRate,
}: {
  rating: Rating | null | undefined;
  onRate: (rating: Rating) => Promise<void>;
}): React.JSX.Element {
  const labels = useLabels();
  const [failed, setFailed] = useState(false);
  const rate = (value: Rating) => {
    setFailed(false);
    onRate(value).catch(() => setFailed(true));
  };
  return (
    <span className="bookchat-feedback" role="group" aria-label={labels.wasHelpful}>
      {CHOICES.map(({value, label, icon}) => (
        <button
          key={value}
          type="button"
          className="bookchat-btn bookchat-btn-icon"
          aria-pressed={rating === value}
          aria-label={labels[label]}
          title={labels[label]}
          onClick={() => rate(value)}>
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <path fill="currentColor" d={icon} />
          </svg>
        </button>
      ))}
      {failed ? <span className="bookchat-feedback-error" role="alert">{labels.ratingFailed}</span> : null}
    </span>
  );
}
