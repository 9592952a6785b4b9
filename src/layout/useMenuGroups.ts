import type { ComponentType } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { useConsoleConfig } from '../ConsoleConfigContext';
import { MENU_GROUPS } from '../domain/menu';
import { useMenuRoutes } from './useMenuRoutes';

interface MenuEntry {
  to: string;
  label: string;
  icon: ComponentType;
}

interface MenuGroupEntries {
  group: string;
  label: string;
  entries: MenuEntry[];
}

/**
 * The menu's content: what useMenuRoutes lists (the route table filtered by the role policy, or the
 * server's menu), grouped as the old console's menu was, then the external links. The side menu and the
 * horizontal top menu both draw it, so they never differ. A link's `{locale}` becomes the current language,
 * so the help pages open in the language the console shows.
 */
export const useMenuGroups = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { externalLinks } = useConsoleConfig();
  const { routes, resources } = useMenuRoutes();
  const groups: MenuGroupEntries[] = MENU_GROUPS.map((group) => ({
    group,
    label: translate(`app.menu.${group}`),
    entries: [
      ...routes
        .filter((route) => route.group === group)
        .map(({ path, labelKey, icon }) => ({ to: path, label: translate(labelKey), icon })),
      ...resources
        .filter(({ options }) => options.config.menu.group === group)
        .map(({ name, icon }) => ({ to: `/${name}`, label: translate(`resources.${name}.name`, { smart_count: 2 }), icon })),
    ],
  })).filter(({ entries }) => entries.length > 0);
  const links = {
    label: translate('app.menu.links'),
    entries: externalLinks.map(({ labelKey, href }) => ({ href: href.replaceAll('{locale}', locale), label: translate(labelKey) })),
  };
  return { groups, links };
};
