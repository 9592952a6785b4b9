import type { ComponentType } from 'react';
import { BasicInfoTab } from './BasicInfoTab';
import { CertificationTab } from './CertificationTab';
import { NotificationsTab } from './NotificationsTab';
import { SecurityTab } from './SecurityTab';
import type { TabProps } from './tabProps';


/**
 * The user settings' tabs, in order. A new tab is one more entry: its id (also `?tab=` in the address),
 * its label and its view. While a reset password waits to be changed, only the tabs marked `whileMustChange`
 * show: the server refuses every other call until then.
 */
export interface UserSettingTab {
  id: string;
  labelKey: string;
  view: ComponentType<TabProps>;
  whileMustChange?: true;
}

export const USER_SETTING_TABS: readonly UserSettingTab[] = [
  { id: 'basic', labelKey: 'app.userSetting.tabs.basic', view: BasicInfoTab },
  { id: 'security', labelKey: 'app.userSetting.tabs.security', view: SecurityTab, whileMustChange: true },
  { id: 'certification', labelKey: 'app.userSetting.tabs.certification', view: CertificationTab },
  { id: 'notifications', labelKey: 'app.notifications.title', view: NotificationsTab },
];
