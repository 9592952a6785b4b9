/**
 * The console's own messages, written first in Chinese; en-US is declared against this object's type,
 * so a key missing from either fails the build. react-admin's own messages live in ra-zh-CN.ts.
 */
export const appZhCN = {
  app: {
    title: '氧舱监管系统',
    subtitle: '氧舱设备集中监控与管理',
    login: {
      account: '用户名',
      password: '密码',
      remember: '记住密码',
      rememberHint: '记住用户名，并允许浏览器保存密码；本系统从不在浏览器中保存密码。',
      forgot: '忘记密码',
      register: '注册账号',
      submit: '登录',
      accountRequired: '用户名不能为空',
      passwordRequired: '密码不能为空',
      wrong: '账号或密码错误',
      error: '登录出错，请刷新后重试',
    },
    accountHelp: {
      title: '账号与密码',
      registerTitle: '如何获得账号',
      registerBody:
        '本系统不开放自助注册。账号由您的上级管理员在“用户管理”中创建：请联系您所在机构的管理员，告知所需的账号级别和需要管理的设备。',
      resetTitle: '忘记密码怎么办',
      resetBody:
        '请联系您的上级管理员在“用户管理”中为您重置密码。重置后系统只显示一次新密码，您下次登录时需要设置自己的新密码。超级管理员忘记密码时，请由运维人员通过服务器配置重新设定。',
      back: '返回登录',
    },
    menu: {
      dashboard: '仪表盘',
      workplace: '工作台',
      list: '设备',
      oxygenMonitor: '氧舱监控',
      deviceAtts: '设备状态',
      deviceManager: '设备管理',
      other: '订单与用户',
      orderManager: '订单管理',
      orderList: '订单列表',
      userManager: '用户管理',
      user: '个人中心',
      userInfo: '用户信息',
      userSetting: '用户设置',
      exception: '异常页',
      exception403: '403',
      exception404: '404',
      exception500: '500',
      links: '外部链接',
      designSystem: '设计系统',
      faq: '常见问题',
    },
    roles: {
      admin: '超级管理员',
      user: '一级管理员',
      lowUser: '二级管理员',
      client: '普通用户',
    },
    workplace: {
      welcome: '欢迎，%{account}',
      account: '账号',
      role: '角色',
      level: '账号级别',
      levelValue: '%{level} 级（%{name}）',
      upperAdmin: '上级管理员',
      none: '无',
      menuTitle: '您可以使用的功能',
    },
    planned: {
      title: '即将上线',
      body: '“%{page}”页面正在建设中，将在后续版本中提供。您的账号有权访问此页面。',
    },
    exception: {
      403: { title: '403', body: '抱歉，您无权访问该资源。' },
      404: { title: '404', body: '抱歉，页面不见了。', retry: '重试', back: '返回' },
      500: { title: '500', body: '抱歉，服务器内部错误。' },
      home: '返回工作台',
    },
    locale: {
      switch: '切换语言',
      changed: '语言已切换为简体中文',
    },
    http: {
      requestError: '请求错误',
    },
  },
};
