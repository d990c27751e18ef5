// @vitest-environment node
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {normalizePluginOptions, normalizeThemeConfig} from '@docusaurus/utils-validation';
import type {LoadContext} from '@docusaurus/types';
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import {describe, expect, it} from 'vitest';
import themeBookchat, {buildManifest, defaultTranslations, getSwizzleConfig, validateOptions, validateThemeConfig} from '../src/server';
import {DEFAULT_LABELS} from '../src/labels';

// Docusaurus' own validate helpers, as `docusaurus build` calls them.
const options = (given: unknown) => validateOptions({validate: normalizePluginOptions as never, options: given as never});
const themeConfig = (given: unknown) => validateThemeConfig({validate: normalizeThemeConfig as never, themeConfig: given as never});

describe('options', () => {
  it('need an http(s) apiUrl and fill in the defaults', () => {
    expect(options({apiUrl: 'https://api.example.org'})).toMatchObject({apiUrl: 'https://api.example.org', contentSelector: '.theme-doc-markdown'});
    expect(() => options({})).toThrow(/"apiUrl" is required/);
    expect(() => options({apiUrl: 'ftp://x'})).toThrow(/"apiUrl" must be an http\(s\) URL/);
  });

  it('reject an unknown option by name', () => {
    expect(() => options({apiUrl: 'https://api.example.org', apiURL: 'https://typo'})).toThrow(/"apiURL" is not allowed/);
    // A misspelling is named along with what it should have been.
    expect(() => options({apiURL: 'https://typo'})).toThrow(/"apiUrl" is required.*"apiURL" is not allowed/s);
  });

  it('themeConfig.bookchat: shortcut defaults to mod+i, accepts false, rejects bad keys and unknown fields', () => {
    expect(themeConfig({}).bookchat).toEqual({shortcut: 'mod+i'});
    expect(themeConfig({bookchat: {shortcut: false}}).bookchat.shortcut).toBe(false);
    expect(() => themeConfig({bookchat: {shortcut: 'ctrl+'}})).toThrow(/themeConfig.bookchat.shortcut/);
    expect(() => themeConfig({bookchat: {titel: 'x'}})).toThrow(/"bookchat.titel" is not allowed/);
  });
});

const docs = {
  loadedVersions: [
    {versionName: 'current', label: '2.0', isLast: true, path: '/textbook/fr/docs', docs: [
      {id: 'intro', source: '@site/i18n/fr/docusaurus-plugin-content-docs/current/intro.md', permalink: '/textbook/fr/docs/', title: 'Bienvenue'},
      {id: 'guide', source: '@site/docs/guide.md', permalink: '/textbook/fr/docs/guide', title: 'Guide'},
    ]},
    {versionName: '1.0', label: '1.0', isLast: false, path: '/textbook/fr/docs/1.0', docs: [
      {id: 'intro', source: '@site/versioned_docs/version-1.0/intro.md', permalink: '/textbook/fr/docs/1.0/', title: 'Welcome'},
    ]},
  ],
} as unknown as LoadedContent;

function context(locale: string): LoadContext {
  return {
    siteConfig: {url: 'https://example.org', trailingSlash: true},
    baseUrl: locale === 'en' ? '/textbook/' : `/textbook/${locale}/`,
    i18n: {currentLocale: locale, defaultLocale: 'en', locales: ['en', 'fr'], path: 'i18n', localeConfigs: {}},
  } as unknown as LoadContext;
}

describe('the route manifest', () => {
  it('lists every version and doc with its permalink (trailing slash applied), marking what is really translated', () => {
    const manifest = buildManifest(context('fr'), docs, '@bookchat/docusaurus-theme@0.1.0');
    expect(manifest).toMatchObject({format: 1, siteUrl: 'https://example.org', baseUrl: '/textbook/fr/', trailingSlash: true, locale: 'fr', defaultLocale: 'en', locales: ['en', 'fr']});
    expect(manifest.versions.map((v) => [v.name, v.label, v.isLast, v.path])).toEqual([['current', '2.0', true, '/textbook/fr/docs/'], ['1.0', '1.0', false, '/textbook/fr/docs/1.0/']]);
    expect(manifest.versions[0].docs).toEqual([
      {id: 'intro', source: 'i18n/fr/docusaurus-plugin-content-docs/current/intro.md', localized: true, permalink: '/textbook/fr/docs/', title: 'Bienvenue'},
      {id: 'guide', source: 'docs/guide.md', localized: false, permalink: '/textbook/fr/docs/guide/', title: 'Guide'},
    ]);
  });

  it('is written by postBuild into the locale build\'s outDir', async () => {
    const plugin = themeBookchat(context('en'), {apiUrl: 'https://api.example.org/', contentSelector: '.x'});
    const data: unknown[] = [];
    await plugin.allContentLoaded!({allContent: {'docusaurus-plugin-content-docs': {default: docs}}, actions: {setGlobalData: (d: unknown) => data.push(d)}} as never);
    expect(data).toEqual([{apiUrl: 'https://api.example.org', contentSelector: '.x'}]);
    const outDir = mkdtempSync(join(tmpdir(), 'bookchat-manifest-'));
    try {
      await plugin.postBuild!({outDir} as never);
      const written = JSON.parse(readFileSync(join(outDir, 'bookchat-routes.json'), 'utf8'));
      expect(written.generator).toMatch(/^@bookchat\/docusaurus-theme@\d/);
      expect(written.versions[0].docs.every((d: {localized: boolean}) => d.localized)).toBe(true);
    } finally {
      rmSync(outDir, {recursive: true, force: true});
    }
  });
});

describe('translations and swizzling', () => {
  it('ship French for every reader-visible string', () => {
    const fr = defaultTranslations('fr-CA');
    const ids = [...Object.keys(DEFAULT_LABELS).map((k) => `theme.bookchat.${k}`), 'theme.bookchat.title'];
    expect(ids.filter((id) => !fr[id])).toEqual([]);
    expect(defaultTranslations('de')).toEqual({});
  });

  it('mark the panel safe to swizzle and the wrappers unsafe', () => {
    const {components} = getSwizzleConfig();
    expect(components.BookChat.actions).toEqual({eject: 'safe', wrap: 'safe'});
    expect(components.Root.actions.eject).toBe('unsafe');
  });
});
