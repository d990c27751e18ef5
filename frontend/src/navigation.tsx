import React, {createContext, useContext} from 'react';

/** Navigates inside the host site (Docusaurus' history.push); defaults to a full page load. */
export type Navigate = (url: string) => void;

const NavigateContext = createContext<Navigate>((url) => {
  window.location.assign(url);
});

/** Provides the site's client-side navigation to the widget's links. */
export const NavigateProvider = NavigateContext.Provider;

/** Returns the site's navigate function. */
export function useNavigate(): Navigate {
  return useContext(NavigateContext);
}

/** True for URLs that stay on this site (same origin, not protocol-relative). */
export function isInternalUrl(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/** A link that navigates client-side for site URLs and opens other sites in a new tab. */
export function SiteLink({
  href,
  onNavigated,
  children,
  ...rest
}: React.AnchorHTMLAttributes<HTMLAnchorElement> & {href: string; onNavigated?: () => void}): React.JSX.Element {
  const navigate = useNavigate();
  if (!isInternalUrl(href)) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  const onClick = (event: React.MouseEvent<HTMLAnchorElement>) => {
    // Let the browser handle new-tab/new-window clicks.
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
    onNavigated?.();
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
