/** The Docusaurus side of @bookchat/docusaurus-theme: theme paths, options, the route manifest. */
import {readFileSync} from 'node:fs';
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

function generator(): string {
  const pkg = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {name: string; version: string};
  return `${pkg.name}@${pkg.version}`;
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
