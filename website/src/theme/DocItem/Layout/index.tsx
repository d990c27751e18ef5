import React, {useEffect} from 'react';
import Layout from '@theme-original/DocItem/Layout';
import type LayoutType from '@theme/DocItem/Layout';
import type {WrapperProps} from '@docusaurus/types';
import {useDoc} from '@docusaurus/plugin-content-docs/client';
import {publishCurrentDoc} from '@bookchat/widget';

type Props = WrapperProps<typeof LayoutType>;

/** Publishes the doc being read to the widget (Root cannot call useDoc), then renders the original layout. */
export default function LayoutWrapper(props: Props): React.JSX.Element {
  const {metadata, frontMatter} = useDoc();
  useEffect(() => {
    publishCurrentDoc({
      id: metadata.id,
      title: metadata.title,
      permalink: metadata.permalink,
      frontMatter: frontMatter as Record<string, unknown>,
    });
    return () => publishCurrentDoc(null);
  }, [metadata.id, metadata.title, metadata.permalink, frontMatter]);
  return <Layout {...props} />;
}
