import React, {useId} from 'react';
import {useLabels} from '../labels';

/** Which part of the book questions are asked about (selection mode is set by the quote instead). */
export type Scope = 'chapter' | 'book';

/** Two radio buttons: "This chapter" (when the page belongs to one) and "Whole book". */
export function ScopeSwitch({
  scope,
  onChange,
  chapterTitle,
  disabled,
}: {
  scope: Scope;
  onChange: (scope: Scope) => void;
  chapterTitle: string | null;
  disabled?: boolean;
}): React.JSX.Element {
  const labels = useLabels();
  const name = useId();
  const effective = chapterTitle ? scope : 'book';
  return (
    <fieldset className="bookchat-scope" disabled={disabled}>
      <legend className="bookchat-sr">{labels.searchIn}</legend>
      <label className={effective === 'chapter' ? 'is-active' : ''} title={chapterTitle ?? labels.noChapter}>
        <input
          type="radio"
          name={name}
          value="chapter"
          checked={effective === 'chapter'}
          disabled={!chapterTitle}
          onChange={() => onChange('chapter')}
        />
        <span>{labels.thisChapter}</span>
      </label>
      <label className={effective === 'book' ? 'is-active' : ''}>
        <input type="radio" name={name} value="book" checked={effective === 'book'} onChange={() => onChange('book')} />
        <span>{labels.wholeBook}</span>
      </label>
      {chapterTitle && effective === 'chapter' ? <span className="bookchat-scope-chapter">{chapterTitle}</span> : null}
    </fieldset>
  );
}
