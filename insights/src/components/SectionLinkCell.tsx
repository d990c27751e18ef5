// A section of the book as a link that opens the book at its heading (or plain text without one).
import {bookHref} from '../links';

interface Props {
  bookUrl: string | null;
  url: string | null;
  section: string | null;
  chapterTitle?: string;
}

export function SectionLinkCell({bookUrl, url, section, chapterTitle}: Props) {
  if (!url && !section) return <span className="muted">–</span>;
  const href = bookHref(bookUrl, url);
  const name = section || url || '';
  return (
    <span className="section-link">
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {name}
        </a>
      ) : (
        name
      )}
      {chapterTitle ? <span className="muted"> · {chapterTitle}</span> : null}
    </span>
  );
}
