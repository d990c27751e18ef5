/**
 * The route manifest (`bookchat-routes.json`, format 1) that `bookchat ingest --site` reads: every
 * doc of every version of the default docs plugin, with its real permalink in this locale build.
 */
import {applyTrailingSlash} from '@docusaurus/utils-common';
import type {LoadContext} from '@docusaurus/types';
import type {LoadedContent} from '@docusaurus/plugin-content-docs';

export const MANIFEST_FILE = 'bookchat-routes.json';

export interface ManifestDoc {
  id: string;
  source: string;
  localized: boolean;
  permalink: string;
  title: string;
}

export interface ManifestVersion {
  name: string;
  label: string;
  isLast: boolean;
  path: string;
  docs: ManifestDoc[];
}

export interface Manifest {
  format: 1;
  generator: string;
  siteUrl: string;
  baseUrl: string;
  trailingSlash: boolean | null;
  locale: string;
  defaultLocale: string;
  locales: string[];
  versions: ManifestVersion[];
}

/** Builds the manifest of one locale build from the docs plugin's loaded content. */
export function buildManifest(context: Pick<LoadContext, 'siteConfig' | 'baseUrl' | 'i18n'>, docs: LoadedContent, generator: string): Manifest {
  const {currentLocale, defaultLocale, locales} = context.i18n;
  const translatedPrefix = `i18n/${currentLocale}/`;
  // The docs plugin's paths ignore `trailingSlash`; the site's links and routes apply it.
  const route = (path: string) => applyTrailingSlash(path, {trailingSlash: context.siteConfig.trailingSlash, baseUrl: context.baseUrl});
  return {
    format: 1,
    generator,
    siteUrl: context.siteConfig.url,
    baseUrl: context.baseUrl,
    trailingSlash: context.siteConfig.trailingSlash ?? null,
    locale: currentLocale,
    defaultLocale,
    locales: [...locales],
    versions: docs.loadedVersions.map((version) => ({
      name: version.versionName,
      label: version.label,
      isLast: version.isLast,
      path: route(version.path),
      docs: version.docs.map((doc) => {
        const source = doc.source.replace(/^@site\//, '');
        return {
          id: doc.id,
          source,
          localized: currentLocale === defaultLocale || source.startsWith(translatedPrefix),
          permalink: route(doc.permalink),
          title: doc.title,
        };
      }),
    })),
  };
}
