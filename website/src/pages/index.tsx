import React from 'react';
import Head from '@docusaurus/Head';
import Link from '@docusaurus/Link';
import {Redirect} from '@docusaurus/router';
import useBaseUrl from '@docusaurus/useBaseUrl';

/**
 * The book is the site: the home page sends readers to the docs root. The meta refresh and the
 * link cover readers without JavaScript; the Redirect covers client-side navigation.
 */
export default function Home(): React.JSX.Element {
  const docs = useBaseUrl('/docs/');
  return (
    <>
      <Head>
        <meta httpEquiv="refresh" content={`0; url=${docs}`} />
        <link rel="canonical" href={docs} />
      </Head>
      <main style={{padding: '2rem'}}>
        <Link to={docs}>Read Practical Git</Link>
      </main>
      <Redirect to={docs} />
    </>
  );
}
