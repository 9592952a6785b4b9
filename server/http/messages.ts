/**
 * The server's message catalogue: every msg it answers, and the message box's titles and contents
 * (`box.*`, server/messages/kinds.ts), in both languages, same keys (a test checks). en-US texts are
 * lower case where the old console's mock spelled them so. `{name}` is a parameter.
 */

import { CHANNEL_FORM_MESSAGES, type ChannelFormRule } from '../../src/domain/channelFormMessages';
import { DEFAULT_LOCALE, FALLBACK_LOCALE, LOCALES, type Locale } from '../../src/domain/locales';

/** The template forms' rule messages (worded in src/domain/channelForm.ts) under `channelForm.<rule>`, each naming its field. */
const withField = (texts: Record<ChannelFormRule, string>, name: (text: string) => string) =>
  Object.fromEntries(Object.entries(texts).map(([rule, text]) => [`channelForm.${rule}`, name(text)])) as Record<`channelForm.${ChannelFormRule}`, string>;

const enUS = {
  ok: 'success',
  failure: 'Request Error',
  notFound: 'not found',
  forbidden: 'access denied',
  busy: 'the server is busy, try again later',
  tooManyRequests: 'too many requests: wait {seconds} s before trying again',
  'live.tooManyStreams': 'too many live streams for this session (at most {max}): close a tab or wait {seconds} s',
  'auth.notSignedIn': 'not logged in',
  'auth.wrongCredentials': 'account or password wrong',
  'auth.tooManyFailures': 'too many failed sign-ins, try again later',
  'validation.accountEmpty': 'username cannot be empty ({field})',
  'validation.passwordEmpty': 'password cannot be empty ({field})',
  'validation.required': '{field} cannot be empty',
  'validation.unknownField': 'unknown field: {field}',
  'validation.wrongType': '{field} must be {type}',
  'validation.tooShort': '{field} must be at least {min} characters',
  'validation.tooLong': '{field} must be at most {max} characters',
  'validation.tooSmall': '{field} must be at least {min}',
  'validation.tooBig': '{field} must be at most {max}',
  'validation.oneOf': '{field} must be one of {values}',
  'validation.invalid': '{field} is invalid',
  'validation.weakPassword': '{field} needs at least {min} characters, no spaces, upper and lower case letters and digits',
  'validation.commonPassword': '{field} is on a list of common or breached passwords: choose another',
  'validation.body': 'the request body is not valid JSON',
  'validation.mediaType': 'the request body must be JSON',
  'validation.bodyTooLarge': 'the request body is too large',
  'account.exists': 'account {account} already exists',
  'account.notFound': 'account not found',
  'account.levelNotAllowed': 'Level must be lower than your own account level ({field})',
  'account.wrongOldCode': 'the current password is wrong ({field})',
  'account.mustChangeCode': 'your password was reset: choose a new password first',
  'account.deviceNotManaged': 'device {device} is not one you manage ({field})',
  'account.sameCode': 'the new password must differ from the current one ({field})',
  'account.rootStays': 'a super administrator stays at the top of the hierarchy, at its level ({field})',
  'account.upperRequired': 'every account but a super administrator has an upper-level administrator ({field})',
  'account.upperNotFound': 'administrator {upper} is not one of your accounts ({field})',
  'account.upperBelowTarget': '{upper} is {account} itself or an account below it: an account cannot move under its own subtree ({field})',
  'account.notBelowUpper': 'an account must sit at a lower level than its upper administrator {upper} ({field})',
  'account.notAboveBelow': 'account {below} sits directly below at that level or higher: the level must stay above it ({field})',
  'account.hasAccountsBelow': 'accounts sit below {account}: {accounts}; move or delete them first ({field})',
  'account.deviceNotHeldAbove': 'device {device} is not one {upper} manages: assign it to {upper} or take it from this account first ({field})',
  'device.setPointAboveRating': '{field} must be at most {max} ATA, the rated maximum of type {type} ({name})',
  'device.typeBelowSetPoint': '{field}: type {type} ({name}) is rated {max} ATA, below the set point of {setPoint} ATA in force on {device}',
  'deviceType.ratingBelowSetPoint': '{field} cannot be {max} ATA: {count} chamber(s) of this type run a higher set point, {device} at {setPoint} ATA',
  'device.exists': 'device {device} already exists ({field})',
  'device.idEmpty': 'device ID cannot be empty',
  'device.removedKeepsId': 'device {device} was removed and its Id stays with its history: choose another Id ({field})',
  'alarm.cannot.ack': 'alarm {id} cannot be acknowledged in its present state',
  'alarm.cannot.shelve': 'alarm {id} cannot be shelved in its present state: only an active or returned alarm can',
  'alarm.cannot.unshelve': 'alarm {id} is not shelved',
  'alarm.cannot.close': 'alarm {id} is closed already',
  'settingRequest.notWaiting': 'request {id} is {status} already: it can no longer be decided, amended or cancelled',
  'settingRequest.changed': 'request {id} was changed since you opened it: read the settings again and sign anew ({field})',
  'settingRequest.wrongPassword': 'the password is wrong: the signature was refused ({field})',
  'settingRequest.meaning': '{field} must be one of {values} for this decision',
  'order.setTPast': 'the booking time has passed ({field})',
  'order.setTTooFar': 'the booking time may be at most {days} days ahead ({field})',
  'order.overlap': 'the booking time overlaps booking {order} of device {device} ({field})',
  'order.notCancellable': 'booking {order} has been used, has expired or was cancelled: only a booking not yet used can be cancelled',
  'rest.notJson': '{field} is not valid JSON',
  'rest.notObject': '{field} must be a JSON object',
  'rest.sortShape': '{field} must be ["field", "ASC" or "DESC"]',
  'rest.rangeShape': '{field} must be [first, last]: whole numbers, 0 <= first <= last',
  'rest.rangeTooLarge': '{field} asks for {count} records; at most {max} at once',
  'rest.rangeNotAligned': '{field} must start at a multiple of its length ({size})',
  'list.notSortable': 'cannot sort by {value}: {field} must be one of {values}',
  'history.emptyRange': '{field} must be after from',
  'stats.rangeTooLong': '{field}: the range may be at most {days} days',
  'certificate.expired': 'the certificate has expired ({field})',
  'certificate.notWaiting': 'account {account} has no certificate waiting for a decision ({field})',
  'type.string': 'a string',
  'type.number': 'a number',
  'type.int': 'a whole number',
  'type.boolean': 'true or false',
  'type.object': 'an object',
  'type.array': 'a list',
  'type.value': 'a value of the right type',
  'validation.nulCharacter': '{field} must not contain the NUL character (U+0000)',
  ...withField(CHANNEL_FORM_MESSAGES['en-US'], (text) => `${text} ({field})`),
  'box.by': 'by {by}',
  'box.command.permission': 'permission change',
  'box.command.state': 'state change',
  'box.command.settings': 'settings change',
  'box.command.acked.title': 'Command carried out: {command} of {device}',
  'box.command.acked.content': '{device} acknowledged the {command}.',
  'box.command.refused.title': 'Command refused: {command} of {device}',
  'box.command.refused.content': '{device} refused the {command}: {error}',
  'box.command.refused.noReason': '{device} refused the {command} without a reason.',
  'box.command.timeout.title': 'Command unanswered: {command} of {device}',
  'box.command.timeout.content': '{device} did not answer the {command} in time; check the chamber before sending it again.',
  'box.passwordReset.title': 'Your password was reset',
  'box.passwordReset.content': '{by} reset your password: choose a new one when you next sign in.',
  'box.deviceAssignment.title': 'Your devices changed',
  'box.deviceAssignment.added': 'Now yours: {devices}.',
  'box.deviceAssignment.removed': 'No longer yours: {devices}.',
  'box.alarm.high': 'High priority',
  'box.alarm.medium': 'Medium priority',
  'box.alarm.low': 'Low priority',
  'box.alarm.detail': 'Alarm No. {alarm}.',
  'box.alarm.detail.value': 'Alarm No. {alarm}: value {value}.',
  'box.alarm.detail.limit': 'Alarm No. {alarm}: value {value}, limit {threshold}.',
  'box.alarmRaised.title': '{priority} alarm: {kind} on {device}',
  'box.alarmEscalated.title': 'Alarm now high priority: {kind} on {device}',
  'box.alarmAwaitingAck.title': 'To acknowledge: {priority} alarm, {kind} on {device}',
  'box.alarmAwaitingAck.content': '{detail} Done by itself once someone acknowledges, shelves or closes the alarm.',
  'box.settingRequestAwaiting.title': 'To approve: settings of {device}, requested by {by}',
  'box.settingRequestAwaiting.content': 'Request No. {request}: {settings}. Done by itself once it is approved, rejected or cancelled.',
  'box.settingRequestDecided.approved': 'Approved: settings of {device}',
  'box.settingRequestDecided.rejected': 'Rejected: settings of {device}',
  'box.settingRequestDecided.content': 'Request No. {request}, signed by {by}.',
} as const;

export type MessageKey = keyof typeof enUS;

const zhCN: Record<MessageKey, string> = {
  ok: '成功',
  failure: '请求错误',
  notFound: '请求的资源不存在',
  forbidden: '无权访问',
  busy: '服务器繁忙，请稍后再试',
  tooManyRequests: '请求过于频繁，请 {seconds} 秒后再试',
  'live.tooManyStreams': '本次登录的实时连接过多（最多 {max} 个）：请关闭一些标签页或 {seconds} 秒后再试',
  'auth.notSignedIn': '未登录或登录已过期',
  'auth.wrongCredentials': '账号或密码错误',
  'auth.tooManyFailures': '登录失败次数过多，请稍后再试',
  'validation.accountEmpty': '用户名不能为空（{field}）',
  'validation.passwordEmpty': '密码不能为空（{field}）',
  'validation.required': '{field} 不能为空',
  'validation.unknownField': '未知字段：{field}',
  'validation.wrongType': '{field} 必须是{type}',
  'validation.tooShort': '{field} 至少 {min} 个字符',
  'validation.tooLong': '{field} 最多 {max} 个字符',
  'validation.tooSmall': '{field} 不能小于 {min}',
  'validation.tooBig': '{field} 不能大于 {max}',
  'validation.oneOf': '{field} 必须是以下之一：{values}',
  'validation.invalid': '{field} 无效',
  'validation.weakPassword': '{field} 至少 {min} 个字符，不含空格，须包含大写字母、小写字母和数字',
  'validation.commonPassword': '{field} 属于常见或已泄露的密码，请另选一个',
  'validation.body': '请求体不是有效的 JSON',
  'validation.mediaType': '请求体必须是 JSON',
  'validation.bodyTooLarge': '请求体过大',
  'account.exists': '账号 {account} 已存在',
  'account.notFound': '账号不存在',
  'account.levelNotAllowed': '只能创建比自己级别更低的账号（{field}）',
  'account.wrongOldCode': '当前密码错误（{field}）',
  'account.mustChangeCode': '密码已被重置，请先设置新密码',
  'account.deviceNotManaged': '设备 {device} 不在您管理的设备中（{field}）',
  'account.sameCode': '新密码不能与当前密码相同（{field}）',
  'account.rootStays': '超级管理员始终位于层级顶端，级别不可更改（{field}）',
  'account.upperRequired': '除超级管理员外，每个账号都必须有上级管理员（{field}）',
  'account.upperNotFound': '管理员 {upper} 不是您管理的账号（{field}）',
  'account.upperBelowTarget': '{upper} 是 {account} 本身或其下级账号，账号不能移到自己的下级之下（{field}）',
  'account.notBelowUpper': '账号级别必须低于其上级管理员 {upper}（{field}）',
  'account.notAboveBelow': '下级账号 {below} 的级别不低于该级别，账号级别必须高于其下级（{field}）',
  'account.hasAccountsBelow': '{account} 下仍有账号：{accounts}，请先移走或删除它们（{field}）',
  'account.deviceNotHeldAbove': '设备 {device} 不在 {upper} 管理的设备中：请先将其分配给 {upper}，或从该账号收回（{field}）',
  'device.setPointAboveRating': '{field} 不能大于 {max} ATA，即类型 {type}（{name}）的额定最高压力',
  'device.typeBelowSetPoint': '{field}：类型 {type}（{name}）的额定最高压力为 {max} ATA，低于设备 {device} 当前生效的设定压力 {setPoint} ATA',
  'deviceType.ratingBelowSetPoint': '{field} 不能设为 {max} ATA：该类型有 {count} 台氧舱的设定压力更高，如 {device} 为 {setPoint} ATA',
  'device.exists': '设备 {device} 已存在（{field}）',
  'device.idEmpty': '设备ID不能为空',
  'device.removedKeepsId': '设备 {device} 已删除，其编号随历史记录保留：请换一个编号（{field}）',
  'alarm.cannot.ack': '报警 {id} 当前状态下不能确认',
  'alarm.cannot.shelve': '报警 {id} 当前状态下不能搁置：只能搁置报警中或已恢复的报警',
  'alarm.cannot.unshelve': '报警 {id} 未被搁置',
  'alarm.cannot.close': '报警 {id} 已关闭',
  'settingRequest.notWaiting': '申请 {id} 已{status}：不能再审批、修改或撤销',
  'settingRequest.changed': '申请 {id} 在您打开后已被修改：请重新查看参数后再签名（{field}）',
  'settingRequest.wrongPassword': '密码错误，签名被拒绝（{field}）',
  'settingRequest.meaning': '此决定的 {field} 只能是 {values}',
  'order.setTPast': '预约时间已过（{field}）',
  'order.setTTooFar': '预约时间最多只能提前 {days} 天（{field}）',
  'order.overlap': '预约时间与设备 {device} 的订单 {order} 冲突（{field}）',
  'order.notCancellable': '订单 {order} 已使用、已过期或已取消：只能取消尚未使用的预约',
  'rest.notJson': '{field} 不是有效的 JSON',
  'rest.notObject': '{field} 必须是 JSON 对象',
  'rest.sortShape': '{field} 必须是 ["字段", "ASC" 或 "DESC"]',
  'rest.rangeShape': '{field} 必须是 [起, 止]：整数，0 <= 起 <= 止',
  'rest.rangeTooLarge': '{field} 请求 {count} 条记录，一次最多 {max} 条',
  'rest.rangeNotAligned': '{field} 的起点必须是其长度（{size}）的整数倍',
  'list.notSortable': '不能按 {value} 排序：{field} 必须是以下之一：{values}',
  'history.emptyRange': '{field} 必须晚于 from',
  'stats.rangeTooLong': '{field}：时间范围最长 {days} 天',
  'certificate.expired': '证书已过期（{field}）',
  'certificate.notWaiting': '账号 {account} 没有待审核的证书（{field}）',
  'type.string': '字符串',
  'type.number': '数字',
  'type.int': '整数',
  'type.boolean': '布尔值',
  'type.object': '对象',
  'type.array': '列表',
  'type.value': '正确类型的值',
  'validation.nulCharacter': '{field} 不能包含空字符（U+0000）',
  ...withField(CHANNEL_FORM_MESSAGES['zh-CN'], (text) => `${text}（{field}）`),
  'box.by': '操作人：{by}',
  'box.command.permission': '权限变更',
  'box.command.state': '状态变更',
  'box.command.settings': '参数设置',
  'box.command.acked.title': '指令已执行：{device} {command}',
  'box.command.acked.content': '{device} 已确认执行{command}指令。',
  'box.command.refused.title': '指令被拒绝：{device} {command}',
  'box.command.refused.content': '{device} 拒绝了{command}指令：{error}',
  'box.command.refused.noReason': '{device} 拒绝了{command}指令，未说明原因。',
  'box.command.timeout.title': '指令无应答：{device} {command}',
  'box.command.timeout.content': '{device} 未在规定时间内应答{command}指令，请检查舱体后再发送。',
  'box.passwordReset.title': '您的密码已被重置',
  'box.passwordReset.content': '{by} 重置了您的密码，下次登录时请设置新密码。',
  'box.deviceAssignment.title': '您管理的设备有变动',
  'box.deviceAssignment.added': '新分配给您：{devices}。',
  'box.deviceAssignment.removed': '已从您处移除：{devices}。',
  'box.alarm.high': '高优先级',
  'box.alarm.medium': '中优先级',
  'box.alarm.low': '低优先级',
  'box.alarm.detail': '报警编号 {alarm}。',
  'box.alarm.detail.value': '报警编号 {alarm}，报警值 {value}。',
  'box.alarm.detail.limit': '报警编号 {alarm}，报警值 {value}，阈值 {threshold}。',
  'box.alarmRaised.title': '{priority}报警：{device} {kind}',
  'box.alarmEscalated.title': '报警升级为高优先级：{device} {kind}',
  'box.alarmAwaitingAck.title': '待确认：{device} {kind}（{priority}）',
  'box.alarmAwaitingAck.content': '{detail}有人确认、搁置或关闭该报警后，此待办自动完成。',
  'box.settingRequestAwaiting.title': '待审批：{device} 的参数变更，申请人 {by}',
  'box.settingRequestAwaiting.content': '申请 {request}：{settings}。批准、驳回或撤销后，此待办自动完成。',
  'box.settingRequestDecided.approved': '已批准：{device} 的参数变更',
  'box.settingRequestDecided.rejected': '已驳回：{device} 的参数变更',
  'box.settingRequestDecided.content': '申请 {request}，签名人 {by}。',
};

export const CATALOGUE: Record<Locale, Record<MessageKey, string>> = { 'en-US': enUS, 'zh-CN': zhCN };

export type MessageParams = Record<string, string | number>;

export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(enUS, key);

/** The text of `key` in `language`, with `{name}` parameters filled in. */
export const translate = (language: Locale, key: MessageKey, params: MessageParams = {}): string =>
  CATALOGUE[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );

/**
 * The caller's language from an Accept-Language header: the preferred tag (highest q, then first)
 * decides by its primary subtag among LOCALES (zh* → zh-CN, en* → en-US), any other language →
 * FALLBACK_LOCALE (en-US); absent, empty or only `*` → DEFAULT_LOCALE (zh-CN).
 */
export const pickLanguage = (header: string | string[] | undefined): Locale => {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined) return DEFAULT_LOCALE;
  const ranges = value
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters
        .map((parameter) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter)?.[1])
        .find((found) => found !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.tag !== '' && range.tag !== '*' && Number.isFinite(range.q) && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const preferred = ranges[0];
  if (preferred === undefined) return DEFAULT_LOCALE;
  const primary = preferred.tag.split('-')[0];
  return LOCALES.find(({ locale }) => locale.toLowerCase().split('-')[0] === primary)?.locale ?? FALLBACK_LOCALE;
};
