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
    locales: ['en'],
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
