import { ACCOUNT_MAX } from '../../domain/account';
import { DEFAULT_LEVEL, LEVELS } from '../../domain/roles';
import { INTEGER_ID_MAX } from '../model';
import { defineResource } from '../types';

/** Password calls (docs/product.md, "Wire contract"): an administrator resets another's, anyone changes their own; and device assignment. */
export const ACCOUNT_CALLS = {
  resetPassword: '/code/Admin_reset_Code',
  changeOwnPassword: '/code/self_reset_Code',
  assignDevices: '/assign_Devices',
} as const;

/** The list, create, update and delete calls (the generated views and the mocks use them by name). */
export const ACCOUNT_ENDPOINTS = { list: '/get_Admins', create: '/add_Admin', update: '/update_Admin', delete: '/delete_Admin' } as const;

/**
 * docs/product.md, "Account hierarchy": the accounts an administrator manages (`get_Admins`), creates
 * (`add_Admin` with `{ Account, Code, Level, DeviceIds? }`), edits (`update_Admin`: Level, upper
 * administrator, disabled) and deletes (`delete_Admin`). The server decides which levels a creator may
 * give (creatableLevels, levels.ts, is the same rule) and puts the new account under the creator; the
 * hierarchy's rules for a change are src/domain/accountRules.ts. The password calls and device assignment
 * are custom data provider methods (calls.ts has their bodies).
 */
export const accountsConfig = defineResource({
  name: 'accounts',
  menu: { group: 'other', order: 30 },
  id: 'Account',
  representation: 'Account',
  defaultSort: { field: 'Account', order: 'ASC' },
  adapter: 'upstream',
  endpoints: ACCOUNT_ENDPOINTS,
  fields: {
    Account: { kind: 'text', maxLength: ACCOUNT_MAX, required: true, views: ['list', 'filter', 'sort', 'show', 'create'] },
    Code: { kind: 'password', required: true, views: ['create'] },
    // Field order is column order: the old console's admin list shows Account, SubId, Level, SubAdmin.
    SubId: { kind: 'number', integer: true, min: 1, max: INTEGER_ID_MAX, views: ['list', 'show'] },
    Level: { kind: 'enum', choices: LEVELS, defaultValue: DEFAULT_LEVEL, required: true, views: ['list', 'filter', 'sort', 'show', 'create', 'edit'] },
    SubAdmin: { kind: 'reference', reference: 'accounts', searchBy: 'Account', views: ['list', 'filter', 'show', 'edit'] },
    DeviceIds: { kind: 'reference', reference: 'devices', searchBy: 'Id', many: true, views: ['list', 'show', 'create'] },
    // A disabled account cannot sign in, and its sessions and live streams ended when it was disabled.
    Disabled: { kind: 'boolean', views: ['list', 'filter', 'sort', 'show', 'edit'] },
  },
  labels: {
    'zh-CN': {
      name: '账号 |||| 账号',
      fields: {
        Account: '账号',
        Code: '初始密码',
        Level: '账号级别',
        SubAdmin: '上级管理员',
        SubId: '上级管理员编号',
        DeviceIds: '管理的设备',
        Disabled: '已停用',
      },
      choices: {
        Level: { 0: '超级管理员', 1: '一级管理员', 2: '二级管理员', 3: '普通用户' },
      },
    },
    'en-US': {
      name: 'Account |||| Accounts',
      fields: {
        Account: 'Account',
        Code: 'Initial password',
        Level: 'Account level',
        SubAdmin: 'Upper-level administrator',
        SubId: 'Upper-level administrator ID',
        DeviceIds: 'Managed devices',
        Disabled: 'Disabled',
      },
      choices: {
        Level: { 0: 'super administrator', 1: 'first-level administrator', 2: 'second-level administrator', 3: 'ordinary user' },
      },
    },
  },
});
