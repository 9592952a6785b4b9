import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** Theme colour of spec point 3 (#165DFF); menu width 220 (spec point 9). */
export const THEME_COLOR = '#165DFF';
export const MENU_WIDTH = 220;

const withBrand = (base: RaThemeOptions): RaThemeOptions => ({
  ...base,
  palette: { ...base.palette, primary: { main: THEME_COLOR } },
  sidebar: { width: MENU_WIDTH, closedWidth: 55 },
});

export const lightTheme = withBrand(defaultLightTheme);
export const darkTheme = withBrand(defaultDarkTheme);
