import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** The width of the collapsed side menu: its icons and nothing else. */
const CLOSED_MENU_WIDTH = 55;

/** What the themes are built from: the settings drawer's theme colour (`#rrggbb`) and menu width (px). */
export interface Brand {
  themeColor: string;
  menuWidth: number;
}

const withBrand = (base: RaThemeOptions, { themeColor, menuWidth }: Brand): RaThemeOptions => ({
  ...base,
  // MUI derives the light, dark and contrast shades of the primary colour, and every component uses them.
  palette: { ...base.palette, primary: { main: themeColor } },
  sidebar: { width: menuWidth, closedWidth: CLOSED_MENU_WIDTH },
});

/** The light and dark themes of a brand. */
export const consoleThemes = (brand: Brand) => ({
  lightTheme: withBrand(defaultLightTheme, brand),
  darkTheme: withBrand(defaultDarkTheme, brand),
});
