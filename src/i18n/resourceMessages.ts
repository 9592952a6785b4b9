import { RESOURCE_CONFIGS } from '../resources/configs';
import { deviceCommandsConfig } from '../resources/devices/commandLog';
import { resourceCatalogues } from '../resources/i18n';

/**
 * `resources.*` and `crud.*` messages per language, from the resources' configurations (the alarms' among
 * them: a session report names its alarms' kinds, priorities and states with them) and the command log's
 * (not a page of its own: the device detail lists a device's commands with its labels).
 */
export const RESOURCE_MESSAGES = resourceCatalogues([...RESOURCE_CONFIGS, deviceCommandsConfig]);
