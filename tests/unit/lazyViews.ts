/**
 * The console's lazily loaded views, imported ahead of the first render. The tests wait a bounded time
 * for what they expect; without this, transforming these modules on first use would count against that
 * wait on a busy machine, which the console's users never pay (their chunks are built ahead).
 */
export const loadLazyViews = () =>
  Promise.all([
    import('../../src/layout/ConsoleLayout'),
    import('../../src/resources/generate/ResourceList'),
    import('../../src/resources/generate/ResourceShow'),
    import('../../src/resources/generate/ResourceForm'),
    import('../../src/resources/accounts/AccountActions'),
    import('../../src/resources/accounts/AccountCreate'),
    import('../../src/resources/devices/DeviceCommands'),
    import('../../src/resources/alarms/AlarmActions'),
    import('../../src/resources/alarms/AlarmShow'),
    import('../../src/resources/orders/OrderManager'),
    import('../../src/resources/orders/report/OrderReport'),
    import('../../src/resources/devices/detail/DeviceDetail'),
    import('../../src/pages/WorkplacePage'),
    import('../../src/pages/userSetting/UserSettingPage'),
    import('../../src/pages/ExceptionPage'),
  ]);
