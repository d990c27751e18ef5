/** Which theme components a site may swizzle, and how safely (`docusaurus swizzle` reads this). */
import type {SwizzleConfig} from '@docusaurus/types';

export default function getSwizzleConfig(): SwizzleConfig {
  return {
    components: {
      BookChat: {
        actions: {eject: 'safe', wrap: 'safe'},
        description: 'The chat panel and its launcher: wrap it to add props or hide it on some pages, eject it to restyle',
      },
      'BookChat/labels': {
        actions: {eject: 'unsafe', wrap: 'forbidden'},
        description: "BookChat's strings: translate or reword them in i18n/<locale>/code.json (ids theme.bookchat.*) instead",
      },
      Root: {
        actions: {eject: 'unsafe', wrap: 'unsafe'},
        description: 'Mounts BookChat once above every page (so a conversation survives navigation)',
      },
      'DocItem/Layout': {
        actions: {eject: 'unsafe', wrap: 'unsafe'},
        description: 'Tells BookChat which doc, version and locale the reader is on',
      },
    },
  };
}
