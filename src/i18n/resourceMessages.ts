import { RESOURCE_CONFIGS } from '../resources/configs';
import { resourceCatalogues } from '../resources/i18n';

/** `resources.*` and `crud.*` messages per language, from the resources' configurations. */
export const RESOURCE_MESSAGES = resourceCatalogues(RESOURCE_CONFIGS);
