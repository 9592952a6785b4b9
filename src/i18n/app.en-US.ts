import type { appZhCN } from './app.zh-CN';

/** English app messages; `satisfies` against the Chinese catalogue keeps the two key sets equal. */
export const appEnUS = {
  app: {
    title: 'Oxygen Chamber Supervisory System',
    subtitle: 'Central monitoring and management of oxygen chambers',
    login: {
      account: 'Username',
      password: 'Password',
      remember: 'Remember password',
      rememberHint:
        'Remembers your username and lets the browser save the password; this system never stores passwords in the browser.',
      forgot: 'Forgot password',
      register: 'Register',
      submit: 'Sign in',
      accountRequired: 'Username cannot be empty',
      passwordRequired: 'Password cannot be empty',
      wrong: 'account or password wrong',
      error: 'Login error, refresh and try again',
    },
    accountHelp: {
      title: 'Accounts and passwords',
      registerTitle: 'How to get an account',
      registerBody:
        'There is no self-registration. Accounts are created by your upper-level administrator under "User manager": ask the administrator of your organisation, telling them the account level you need and the devices you will manage.',
      resetTitle: 'Forgot your password?',
      resetBody:
        'Ask your upper-level administrator to reset it under "User manager". The new password is shown to them once, and you choose your own at your next sign-in. If the super administrator forgets the password, operations staff set a new one through the server configuration.',
      back: 'Back to sign-in',
    },
    menu: {
      dashboard: 'Dashboard',
      workplace: 'Workplace',
      list: 'Devices',
      oxygenMonitor: 'Oxygen monitor',
      deviceAtts: 'Device status',
      deviceManager: 'Device manager',
      other: 'Orders and users',
      orderManager: 'Order manager',
      orderList: 'Order list',
      userManager: 'User manager',
      user: 'User centre',
      userInfo: 'User info',
      userSetting: 'User settings',
      exception: 'Exception pages',
      exception403: '403',
      exception404: '404',
      exception500: '500',
      links: 'Links',
      designSystem: 'Design system',
      faq: 'FAQ',
    },
    roles: {
      admin: 'super administrator',
      user: 'first-level administrator',
      lowUser: 'second-level administrator',
      client: 'ordinary user',
    },
    workplace: {
      welcome: 'Welcome, %{account}',
      account: 'Account',
      role: 'Role',
      level: 'Account level',
      levelValue: 'Level %{level} (%{name})',
      upperAdmin: 'Upper-level administrator',
      none: 'none',
      menuTitle: 'What you can use',
    },
    planned: {
      title: 'Coming soon',
      body: 'The "%{page}" screen is being built and arrives in a later release. Your account may open it.',
    },
    exception: {
      403: { title: '403', body: 'Sorry, access to this resource is denied.' },
      404: { title: '404', body: 'Sorry, the page is gone.', retry: 'Retry', back: 'Back' },
      500: { title: '500', body: 'Sorry, internal server error.' },
      home: 'Back to workplace',
    },
    locale: {
      switch: 'Language',
      changed: 'Language switched to English',
    },
    http: {
      requestError: 'Request Error',
    },
  },
} satisfies typeof appZhCN;
