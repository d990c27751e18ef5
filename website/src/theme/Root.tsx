import React, {type ReactNode} from 'react';
import BrowserOnly from '@docusaurus/BrowserOnly';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {useHistory, useLocation} from '@docusaurus/router';
import {BookChat, useCurrentDoc} from '@bookchat/widget';
import '@bookchat/widget/styles.css';

/** Mounts the widget once around every page, so its state survives client-side navigation. */
export default function Root({children}: {children: ReactNode}): React.JSX.Element {
  return (
    <>
      {children}
      {/* The widget reads window, selection and localStorage: render it after hydration only. */}
      <BrowserOnly>{() => <Widget />}</BrowserOnly>
    </>
  );
}

function Widget(): React.JSX.Element {
  const {siteConfig} = useDocusaurusContext();
  const history = useHistory();
  const location = useLocation();
  const doc = useCurrentDoc();
  const apiUrl = String(siteConfig.customFields?.bookchatApiUrl ?? 'http://127.0.0.1:8000');
  return (
    <BookChat
      apiUrl={apiUrl}
      title={`Ask ${siteConfig.title}`}
      pathname={location.pathname}
      doc={doc}
      navigate={(url) => history.push(url)}
    />
  );
}
