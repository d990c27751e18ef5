import React, {useId} from 'react';
import {fill, useLabels} from '../labels';
import {tableRowsAsText} from '../markdown';
import {SiteLink} from '../navigation';
import type {RelatedSection} from '../types';
import {InlineMarkdown} from './Markdown';

/** Props of RelatedPlaces. */
export interface RelatedPlacesProps {
  places: RelatedSection[];
  /** "also": beside a grounded answer, under its own heading; "closest": instead of an answer,
   * introduced by the answer's sentence. */
  kind: 'also' | 'closest';
  /** The chapter the reader is in (or asked about): places elsewhere name their chapter. */
  chapter?: string;
  onNavigated?: () => void;
}

/**
 * Places in the book close to the question, best first: each its section linking to the heading,
 * where it is, and the sentences nearest the question, highlighted so the reader sees why.
 */
export function RelatedPlaces({places, kind, chapter, onNavigated}: RelatedPlacesProps): React.JSX.Element | null {
  const labels = useLabels();
  const headingId = useId();
  if (places.length === 0) return null;
  const named = kind === 'also' ? {'aria-labelledby': headingId} : {'aria-label': labels.closestSections};
  return (
    <div className={`bookchat-related bookchat-related-${kind}`}>
      {kind === 'also' ? (
        <p id={headingId} className="bookchat-related-title">
          {labels.alsoInBook}
        </p>
      ) : null}
      <ul {...named}>
        {places.map((place) => {
          const page = place.title && place.title !== place.section ? place.title : '';
          const otherChapter = place.chapter_title && place.chapter !== chapter ? fill(labels.inChapter, {chapter: place.chapter_title}) : '';
          return (
            <li key={place.url || `${place.path}#${place.section}`} className="bookchat-related-place">
              {place.url ? (
                <SiteLink href={place.url} className="bookchat-related-link" onNavigated={onNavigated}>
                  {place.section || place.title}
                </SiteLink>
              ) : (
                <span className="bookchat-related-link">{place.section || place.title}</span>
              )}
              {page || otherChapter ? (
                <span className="bookchat-related-where">
                  {page}
                  {page && otherChapter ? ' · ' : null}
                  {otherChapter ? <span className="bookchat-related-chapter">{otherChapter}</span> : null}
                </span>
              ) : null}
              {place.excerpt ? (
                <p className="bookchat-related-excerpt">
                  <mark>
                    <InlineMarkdown text={tableRowsAsText(place.excerpt)} />
                  </mark>
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
