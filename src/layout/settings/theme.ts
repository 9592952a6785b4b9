import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** The width of the collapsed side menu: its icons and nothing else. */
const CLOSED_MENU_WIDTH = 55;

/**
 * MUI's Latin fonts first, then the Chinese system fonts of macOS, Windows and Linux, so Chinese text
 * never falls back to whatever the browser picks (often a serif, or boxes).
 */
const FONT_FAMILY = [
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  '"Noto Sans CJK SC"',
  '"Source Han Sans SC"',
  '"WenQuanYi Micro Hei"',
  'sans-serif',
].join(', ');

/** What the themes are built from: the settings drawer's theme colour (`#rrggbb`) and menu width (px). */
export interface Brand {
  themeColor: string;
  menuWidth: number;
}

const withBrand = (base: RaThemeOptions, { themeColor, menuWidth }: Brand): RaThemeOptions => ({
  ...base,
  typography: { ...base.typography, fontFamily: FONT_FAMILY },
  // MUI derives the light, dark and contrast shades of the primary colour, and every component uses them.
  palette: { ...base.palette, primary: { main: themeColor } },
  sidebar: { width: menuWidth, closedWidth: CLOSED_MENU_WIDTH },
});

/** The light and dark themes of a brand. */
export const consoleThemes = (brand: Brand) => ({
  lightTheme: withBrand(defaultLightTheme, brand),
  darkTheme: withBrand(defaultDarkTheme, brand),
});
