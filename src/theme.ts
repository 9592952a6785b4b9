import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** Theme colour of spec point 3 (#165DFF); menu width 220 (spec point 9). */
export const THEME_COLOR = '#165DFF';
export const MENU_WIDTH = 220;

/**
 * MUI's Latin fonts first, then the Chinese system fonts of macOS, Windows and Linux, so Chinese text
 * never falls back to whatever the browser picks (often a serif, or boxes).
 */
export const FONT_FAMILY = [
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

const withBrand = (base: RaThemeOptions): RaThemeOptions => ({
  ...base,
  typography: { ...base.typography, fontFamily: FONT_FAMILY },
  palette: { ...base.palette, primary: { main: THEME_COLOR } },
  sidebar: { width: MENU_WIDTH, closedWidth: 55 },
});

export const lightTheme = withBrand(defaultLightTheme);
export const darkTheme = withBrand(defaultDarkTheme);
