import { DEVICE_TYPE_MAX, DEVICE_TYPE_MIN, RATED_MAX_ATA_MAX, RATED_MAX_ATA_MIN } from '../../domain/deviceTypes';
import { defineResource } from '../types';

/**
 * The five device types (docs/device-types.md), served as REST by `/api/v1/device-types`
 * (server/device-types/): listed and read by every role that sees devices, their name and rated maximum
 * pressure edited by the super administrator. Types 1 to 5 are fixed, so there is no create or delete.
 * A type has one name, as the fleet calls that chamber model; the defaults are Chinese, the default language.
 */
export const deviceTypesConfig = defineResource({
  name: 'device-types',
  // Only who may edit the types finds them in the menu; the others see them as the devices' type names.
  menu: { group: 'list', order: 50, action: 'edit' },
  id: 'id',
  representation: 'name',
  defaultSort: { field: 'id', order: 'ASC' },
  adapter: 'rest',
  path: 'device-types',
  fields: {
    id: { kind: 'number', integer: true, min: DEVICE_TYPE_MIN, max: DEVICE_TYPE_MAX, required: true, views: ['list', 'sort', 'show'] },
    name: { kind: 'text', maxLength: 32, required: true, views: ['list', 'sort', 'show', 'edit'] },
    ratedMaxAta: {
      kind: 'number',
      min: RATED_MAX_ATA_MIN,
      max: RATED_MAX_ATA_MAX,
      unit: 'ata',
      required: true,
      views: ['list', 'sort', 'show', 'edit'],
    },
    updatedAt: { kind: 'datetime', required: true, views: ['list', 'sort', 'show'] },
  },
  labels: {
    'zh-CN': {
      name: '设备类型 |||| 设备类型',
      fields: { id: '类型编号', name: '类型名称', ratedMaxAta: '额定最高压力', updatedAt: '更新时间' },
      choices: {},
    },
    'en-US': {
      name: 'Device type |||| Device types',
      fields: { id: 'Type No.', name: 'Type name', ratedMaxAta: 'Rated maximum pressure', updatedAt: 'Update time' },
      choices: {},
    },
  },
});
