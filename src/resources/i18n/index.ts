import type { Locale } from '../../domain/locales';
import type { ResourceConfig, ResourceMessages } from '../types';
import { crudEnUS } from './crud.en-US';
import { crudZhCN } from './crud.zh-CN';

export type ResourceCatalogue = {
  resources: Record<string, ResourceMessages>;
  crud: (typeof crudZhCN)['crud'];
};

const catalogue = (configs: readonly ResourceConfig[], locale: Locale, crud: ResourceCatalogue['crud']): ResourceCatalogue => ({
  resources: Object.fromEntries(configs.map((config) => [config.name, config.labels[locale]])),
  crud,
});

/**
 * The resources' labels (`resources.<name>.name|fields|choices`, where react-admin looks for them) and
 * the generated views' own messages (`crud.*`), per language, to spread into the console's catalogues.
 */
export const resourceCatalogues = (configs: readonly ResourceConfig[]): Record<Locale, ResourceCatalogue> => ({
  'zh-CN': catalogue(configs, 'zh-CN', crudZhCN.crud),
  'en-US': catalogue(configs, 'en-US', crudEnUS.crud),
});
