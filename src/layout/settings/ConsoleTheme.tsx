import { useEffect, useMemo, type ReactNode } from 'react';
import { ThemeProvider, ThemesContext } from 'react-admin';
import { consoleThemes } from './theme';
import { DEFAULT_APP_SETTINGS, useAppSettings, useBrand } from './appSettings';

/** What the settings change outside React's tree: the body's `dark` attribute and colour-weak mode. */
const PageAttributes = () => {
  const [{ theme, colorWeak }] = useAppSettings();
  useEffect(() => {
    document.body.toggleAttribute('dark', theme === 'dark');
  }, [theme]);
  useEffect(() => {
    // On the root element, so the filter does not become the containing block of fixed elements (app bar, drawers).
    document.documentElement.style.filter = colorWeak ? 'invert(80%)' : '';
  }, [colorWeak]);
  return null;
};

/**
 * react-admin's theme pair, rebuilt from the theme colour and menu width in force, for every page the
 * login page included; the mode is react-admin's own (its Store key `theme`), light until chosen.
 */
export const ConsoleTheme = ({ children }: { children: ReactNode }) => {
  const brand = useBrand();
  const themes = useMemo(() => ({ ...consoleThemes(brand), defaultTheme: DEFAULT_APP_SETTINGS.theme }), [brand]);
  return (
    <ThemesContext.Provider value={themes}>
      <ThemeProvider>
        <PageAttributes />
        {children}
      </ThemeProvider>
    </ThemesContext.Provider>
  );
};
