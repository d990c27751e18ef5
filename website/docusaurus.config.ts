import {themes as prismThemes} from 'prism-react-renderer';
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';

// Runs in Node.js at build time: the theme's options are frozen into the bundle here.
const apiUrl = (process.env.BOOKCHAT_API_URL || 'http://127.0.0.1:8000').replace(/\/+$/, '');

const config: Config = {
  title: 'Practical Git',
  tagline: 'A hands-on guide to version control with Git',
  favicon: 'img/favicon.ico',

  future: {
    v4: true,
  },

  url: 'http://127.0.0.1',
  baseUrl: '/',

  onBrokenLinks: 'throw',
  markdown: {
    // The book uses the classic `## Title {#id}` heading ids, which the v4 future flag would
    // otherwise parse as MDX expressions.
    mdx1Compat: {
      headingIds: true,
    },
    hooks: {
      onBrokenMarkdownLinks: 'throw',
    },
  },

  i18n: {
    defaultLocale: 'en',
    // French: a few pages translated (i18n/fr/docusaurus-plugin-content-docs/current/), the others
    // shown in English; bookchat's strings translated in i18n/fr/code.json.
    locales: ['en', 'fr'],
    localeConfigs: {
      en: {label: 'English'},
      fr: {label: 'Français'},
    },
  },

  // The chat panel, installed as any Docusaurus site would: one line.
  themes: [['@bookchat/docusaurus-theme', {apiUrl}]],

  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: 'docs',
          sidebarPath: './sidebars.ts',
          // Two editions: the current one (2.0) at /docs/, the 1.0 snapshot (versioned_docs/) at /docs/1.0/.
          lastVersion: 'current',
          versions: {
            current: {label: '2.0'},
            '1.0': {label: '1.0', banner: 'unmaintained'},
          },
        },
        blog: false,
        theme: {
          customCss: './src/css/custom.css',
        },
      } satisfies Preset.Options,
    ],
  ],

  themeConfig: {
    colorMode: {
      respectPrefersColorScheme: true,
    },
    navbar: {
      title: 'Practical Git',
      logo: {
        alt: 'Practical Git',
        src: 'img/logo.svg',
      },
      items: [
        {
          type: 'docSidebar',
          sidebarId: 'bookSidebar',
          position: 'left',
          label: 'Book',
        },
        {type: 'docsVersionDropdown', position: 'right'},
        {type: 'localeDropdown', position: 'right'},
      ],
    },
    footer: {
      style: 'dark',
      copyright: `Practical Git — built with Docusaurus and bookchat.`,
    },
    prism: {
      theme: prismThemes.github,
      darkTheme: prismThemes.dracula,
      // Registered on the shared Prism instance, so the widget's code blocks get them too.
      additionalLanguages: ['bash', 'diff', 'ini', 'json'],
    },
  } satisfies Preset.ThemeConfig,
};

export default config;
