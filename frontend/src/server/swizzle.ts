/** Which theme components a site may swizzle, and how safely (`docusaurus swizzle` reads this). */
import type {SwizzleActionStatus, SwizzleComponentConfig, SwizzleConfig} from '@docusaurus/types';

/** One component's entry: how safe ejecting and wrapping it are, and what a site would do it for. */
function component(
  eject: SwizzleActionStatus,
  wrap: SwizzleActionStatus,
  description: string,
): SwizzleComponentConfig {
  return {actions: {eject, wrap}, description};
}

export default function getSwizzleConfig(): SwizzleConfig {
  return {
    components: {
      BookChat: component('safe', 'safe', 'The chat panel and its launcher: wrap it to add props or hide it on some pages, eject it to restyle'),
      'BookChat/labels': component('unsafe', 'forbidden', "BookChat's strings: translate or reword them in i18n/<locale>/code.json (ids theme.bookchat.*) instead"),
      Root: component('unsafe', 'unsafe', 'Mounts BookChat once above every page (so a conversation survives navigation)'),
      'DocItem/Layout': component('unsafe', 'unsafe', 'Tells BookChat which doc, version and locale the reader is on'),
    },
  };
}
