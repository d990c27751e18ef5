/** The Docusaurus side of @bookchat/docusaurus-theme: theme paths, options, the route manifest. */
import {existsSync, readFileSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import {join, resolve} from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import {MANIFEST_FILE, buildManifest} from './manifest';
import type {Options} from './options';

export {validateOptions, validateThemeConfig, type Options, type ThemeConfig} from './options';
export {default as getSwizzleConfig} from './swizzle';
export {buildManifest, MANIFEST_FILE, type Manifest} from './manifest';

export const PLUGIN_NAME = 'docusaurus-theme-bookchat';
const DOCS_PLUGIN = 'docusaurus-plugin-content-docs';

/** What the theme components read (usePluginData). */
export interface GlobalData {
  apiUrl: string;
  contentSelector: string;
}

const PACKAGE_DIR = resolve(__dirname, '..', '..');

function generator(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {name: string; version: string};
  return `${pkg.name}@${pkg.version}`;
}

/** The theme's own translations for a locale ("fr-CA" falls back to "fr"); the site's code.json wins. */
export function defaultTranslations(locale: string): Record<string, string> {
  for (const name of [locale, locale.split('-')[0]]) {
    const file = join(PACKAGE_DIR, 'translations', `${name}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  }
  return {};
}

/** The theme: mounts the chat panel on every page and writes bookchat-routes.json after a build. */
export default function themeBookchat(context: LoadContext, options: Options): Plugin<void> {
  // The default docs plugin's content, seen once every plugin has loaded its own.
  let docs: LoadedContent | undefined;
  return {
    name: PLUGIN_NAME,

    getThemePath() {
      return '../theme';
    },

    getTypeScriptThemePath() {
      return '../../src/theme';
    },

    async getDefaultCodeTranslationMessages() {
      return defaultTranslations(context.i18n.currentLocale);
    },

    getClientModules() {
      return [resolve(__dirname, '..', 'styles.css')];
    },

    allContentLoaded({allContent, actions}) {
      docs = allContent[DOCS_PLUGIN]?.default as LoadedContent | undefined;
      const data: GlobalData = {apiUrl: options.apiUrl.replace(/\/+$/, ''), contentSelector: options.contentSelector};
      actions.setGlobalData(data);
    },

    async postBuild({outDir}) {
      if (!docs) return; // a site without the default docs plugin has nothing to index
      const manifest = buildManifest(context, docs, generator());
      await mkdir(outDir, {recursive: true});
      await writeFile(join(outDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}
