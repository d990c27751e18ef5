/** The theme's options and its `themeConfig.bookchat`, validated at build time with Docusaurus' Joi. */
import {Joi} from '@docusaurus/utils-validation';
import type {OptionValidationContext, ThemeConfigValidationContext} from '@docusaurus/types';

/** Options given in `themes: [['@bookchat/docusaurus-theme', {...}]]`. */
export interface Options {
  /** Base URL of the bookchat API, e.g. "https://api.example.org". */
  apiUrl: string;
  /** CSS selector of the doc text in which a selection offers "Ask about this". */
  contentSelector: string;
}

/** `themeConfig.bookchat`: how the panel looks and opens. */
export interface ThemeConfig {
  /** Panel header; default "Ask <site title>" (translatable). */
  title?: string;
  /** Keyboard shortcut that opens the panel ("mod" is Ctrl, or ⌘ on macOS), or false for none. */
  shortcut: string | false;
}

export const DEFAULT_OPTIONS: Omit<Options, 'apiUrl'> = {contentSelector: '.theme-doc-markdown'};
export const DEFAULT_THEME_CONFIG: ThemeConfig = {shortcut: 'mod+i'};

// Ctrl/⌘K belongs to the search bar: the default is ⌘I / Ctrl+I ("inquire").
const SHORTCUT = /^(?:(?:mod|ctrl|meta|alt|shift)\+)*[a-z0-9/.,;]$/;
const SHORTCUT_MESSAGE =
  '"themeConfig.bookchat.shortcut" must be false or keys like "mod+i" (modifiers mod, ctrl, meta, alt, shift, then one key), got {:[.]}';

const OptionsSchema = Joi.object({
  apiUrl: Joi.string()
    .uri({scheme: ['http', 'https']})
    .required()
    .messages({
      'any.required': '"apiUrl" is required: the URL of your bookchat API, e.g. "https://bookchat.example.org"',
      'string.uriCustomScheme': '"apiUrl" must be an http(s) URL, e.g. "https://bookchat.example.org" (got {:[.]})',
      'string.uri': '"apiUrl" must be an http(s) URL, e.g. "https://bookchat.example.org" (got {:[.]})',
    }),
  contentSelector: Joi.string().min(1).default(DEFAULT_OPTIONS.contentSelector),
  // Docusaurus adds the plugin id to every plugin's options.
  id: Joi.string(),
  // Every problem at once: a misspelt "apiURL" is reported along with the missing "apiUrl".
}).prefs({abortEarly: false});

const ThemeConfigSchema = Joi.object({
  bookchat: Joi.object<ThemeConfig>({
    title: Joi.string().min(1),
    shortcut: Joi.alternatives()
      .try(Joi.boolean().valid(false), Joi.string().lowercase().pattern(SHORTCUT))
      .default(DEFAULT_THEME_CONFIG.shortcut)
      .messages({
        'alternatives.match': SHORTCUT_MESSAGE,
        'string.pattern.base': SHORTCUT_MESSAGE,
        'any.only': SHORTCUT_MESSAGE,
      }),
  }).default(DEFAULT_THEME_CONFIG),
})
  .unknown()
  .prefs({abortEarly: false});

/** Validates the theme's options: a bad or unknown option fails the build, naming it. */
export function validateOptions({validate, options}: OptionValidationContext<Partial<Options> | undefined, Options>): Options {
  return validate(OptionsSchema, options ?? {});
}

/** Validates `themeConfig.bookchat`, filling in its defaults. */
export function validateThemeConfig({validate, themeConfig}: ThemeConfigValidationContext<{bookchat?: Partial<ThemeConfig>}>): {bookchat: ThemeConfig} {
  return validate(ThemeConfigSchema, themeConfig) as {bookchat: ThemeConfig};
}
