import React, {useMemo} from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {usePluginData} from '@docusaurus/useGlobalData';
import {useHistory, useLocation} from '@docusaurus/router';
import {translate} from '@docusaurus/Translate';
import {BookChat as Widget, useCurrentDoc} from '@bookchat/docusaurus-theme/client';
import useBookChatLabels from './labels';

interface PluginData {
  apiUrl: string;
  contentSelector: string;
}

interface BookChatThemeConfig {
  title?: string;
  shortcut?: string | false;
}

/** The chat panel, fed with the theme's options, the page's edition and the site's translations. */
export default function BookChat(): React.JSX.Element {
  const {siteConfig, i18n} = useDocusaurusContext();
  const {apiUrl, contentSelector} = usePluginData('docusaurus-theme-bookchat') as PluginData;
  const themeConfig = (siteConfig.themeConfig.bookchat ?? {}) as BookChatThemeConfig;
  const history = useHistory();
  const location = useLocation();
  const doc = useCurrentDoc();
  const labels = useBookChatLabels();
  // On a doc page: that doc's version; elsewhere the API's default version.
  const edition = useMemo(() => ({version: doc?.version, locale: i18n.currentLocale}), [doc?.version, i18n.currentLocale]);
  const title =
    themeConfig.title ??
    translate(
      {id: 'theme.bookchat.title', message: 'Ask {siteTitle}', description: 'The chat panel header; {siteTitle} is the site title'},
      {siteTitle: siteConfig.title},
    );
  return (
    <Widget
      apiUrl={apiUrl}
      title={title}
      pathname={location.pathname}
      doc={doc}
      navigate={(url) => history.push(url)}
      contentSelector={contentSelector}
      edition={edition}
      shortcut={themeConfig.shortcut ?? 'mod+i'}
      labels={labels}
      // One conversation per locale: a French reader does not resume an English conversation.
      storageKey={i18n.currentLocale === i18n.defaultLocale ? undefined : `bookchat:conversation:${i18n.currentLocale}`}
    />
  );
}
