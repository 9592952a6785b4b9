/** Messages of the generated resource views (namespace `crud`), written first in Chinese. */
export const crudZhCN = {
  crud: {
    validation: {
      required: '必填',
      tooShort: '至少 %{min} 个字符',
      tooLong: '最多 %{max} 个字符',
      tooSmall: '不能小于 %{min}',
      tooBig: '不能大于 %{max}',
      integer: '必须是整数',
      oneOf: '必须是以下之一：%{values}',
      pattern: '格式不正确',
      bloodPressure: '请按“收缩压/舒张压”填写，例如 120/80',
      password: '至少 6 个字符，不含空格，须包含大写字母、小写字母和数字',
      invalid: '值无效',
    },
    units: {
      ata: 'ATA',
      kPa: 'kPa',
      minute: '分钟',
      percent: '%',
      celsius: '°C',
      relativeHumidity: '%RH',
      bpm: '次/分',
      mmHg: 'mmHg',
      second: '秒',
    },
    filters: {
      from: '%{field} 起',
      to: '%{field} 止',
    },
    list: {
      actions: '操作',
    },
    commands: {
      open: '开启权限',
      close: '关闭权限',
      setState: '设置状态',
      sent: '指令已发送',
    },
  },
};
