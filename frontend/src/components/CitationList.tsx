import React from 'react';
import {SiteLink} from '../navigation';
import {useLabels} from '../labels';
import type {Citation} from '../types';
import {InlineMarkdown} from './Markdown';

/** The sources of an answer: section, chapter and excerpt, each linking to its page and heading. */
export function CitationList({
  citations,
  idPrefix,
  onNavigated,
}: {
  citations: Citation[];
  idPrefix: string;
  onNavigated?: () => void;
}): React.JSX.Element | null {
  const labels = useLabels();
  if (citations.length === 0) return null;
  return (
    <div className="bookchat-citations">
      <p className="bookchat-citations-title">{labels.sources}</p>
      <ol>
        {citations.map((c) => {
          const title = c.section || c.chapter_title || (c.chunk_id === 'selection' ? labels.yourSelection : labels.source);
          return (
            <li key={`${c.index}-${c.chunk_id}`} id={`${idPrefix}-${c.index}`} tabIndex={-1} className="bookchat-citation">
              <span className="bookchat-citation-index" aria-hidden="true">{c.index}</span>
              <div className="bookchat-citation-body">
                {c.url ? (
                  <SiteLink href={c.url} className="bookchat-citation-link" onNavigated={onNavigated}>
                    {title}
                  </SiteLink>
                ) : (
                  <span className="bookchat-citation-link">{title}</span>
                )}
                {c.chapter_title && c.chapter_title !== title ? (
                  <span className="bookchat-citation-chapter">{c.chapter_title}</span>
                ) : null}
                {c.excerpt ? (
                  <p className="bookchat-citation-excerpt">
                    <InlineMarkdown text={c.excerpt} />
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
