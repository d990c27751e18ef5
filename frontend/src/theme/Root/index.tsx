import React, {type ReactNode} from 'react';
import Root from '@theme-init/Root';
import BrowserOnly from '@docusaurus/BrowserOnly';
import BookChat from '@theme/BookChat';

/**
 * Mounts BookChat once above every page, so a conversation survives client-side navigation. It
 * reads window, the selection and localStorage: rendered after hydration only (nothing in SSR).
 */
export default function RootWrapper({children}: {children: ReactNode}): React.JSX.Element {
  return (
    <Root>
      {children}
      <BrowserOnly>{() => <BookChat />}</BrowserOnly>
    </Root>
  );
}
