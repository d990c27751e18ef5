import React, {useEffect} from 'react';
import Layout from '@theme-init/DocItem/Layout';
import type LayoutType from '@theme/DocItem/Layout';
import type {WrapperProps} from '@docusaurus/types';
import {useDoc} from '@docusaurus/plugin-content-docs/client';
import {publishCurrentDoc} from '@bookchat/docusaurus-theme/client';

type Props = WrapperProps<typeof LayoutType>;

/** Tells BookChat which doc (and docs version) is being read (Root cannot call useDoc), then renders the layout. */
export default function LayoutWrapper(props: Props): React.JSX.Element {
  const {metadata, frontMatter} = useDoc();
  useEffect(() => {
    publishCurrentDoc({
      id: metadata.id,
      title: metadata.title,
      permalink: metadata.permalink,
      frontMatter: frontMatter as Record<string, unknown>,
      version: metadata.version,
    });
    return () => publishCurrentDoc(null);
  }, [metadata.id, metadata.title, metadata.permalink, metadata.version, frontMatter]);
  return <Layout {...props} />;
}
