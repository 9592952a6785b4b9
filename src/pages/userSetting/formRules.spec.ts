import { describe, expect, it } from 'vitest';
import { profileWords } from '../../domain/userSettings';
import { basicInfoErrors, certificateErrors } from './formRules';

const INFO = { email: 'li.na@example.com', nickname: 'Li Na', countryRegion: 'China', area: 'Hangzhou' };
const NOW = Date.parse('2026-11-27T12:00:00Z');

describe('the basic-info form rules', () => {
  it('accepts the four required fields alone, and the optional ones filled in', () => {
    expect(basicInfoErrors(INFO)).toEqual({});
    expect(basicInfoErrors({ ...INFO, address: '西湖区文三路 90 号', phone: '+86 (571) 8888-0000', profile: '高压氧舱操作员。' })).toEqual({});
  });

  it('names each missing or blank required field', () => {
    expect(basicInfoErrors({})).toEqual({
      email: { message: 'ra.validation.required', args: {} },
      nickname: { message: 'ra.validation.required', args: {} },
      countryRegion: { message: 'ra.validation.required', args: {} },
      area: { message: 'ra.validation.required', args: {} },
    });
    expect(basicInfoErrors({ ...INFO, nickname: '   ' })).toEqual({ nickname: { message: 'ra.validation.required', args: {} } });
  });

  it('refuses a malformed email or phone, and a field over its length', () => {
    expect(basicInfoErrors({ ...INFO, email: 'li.na@' })).toEqual({ email: { message: 'ra.validation.email', args: {} } });
    expect(basicInfoErrors({ ...INFO, phone: 'ask reception' })).toEqual({ phone: { message: 'app.userSetting.basic.invalidPhone', args: {} } });
    expect(basicInfoErrors({ ...INFO, nickname: 'n'.repeat(33) })).toEqual({ nickname: { message: 'ra.validation.maxLength', args: { max: 32 } } });
  });

  it('counts the profile as the old console did, one per character: a Chinese character, a letter, an emoji each count one', () => {
    expect(profileWords('氧舱 ok!')).toBe(6);
    expect(profileWords('🫁𠀀')).toBe(2);
    expect(basicInfoErrors({ ...INFO, profile: '氧'.repeat(200) })).toEqual({});
    expect(basicInfoErrors({ ...INFO, profile: '🫁'.repeat(200) })).toEqual({});
    expect(basicInfoErrors({ ...INFO, profile: `${'氧'.repeat(199)}ab` })).toEqual({ profile: { message: 'app.userSetting.basic.profileTooLong', args: { max: 200 } } });
  });
});

describe('the certificate form rules', () => {
  const CERT = { number: 'HBO-2026-0042', issuer: 'Zhejiang Hyperbaric Society', expiresOn: '2027-06-30' };

  it('accepts a certificate valid today or later', () => {
    expect(certificateErrors(CERT, NOW)).toEqual({});
    expect(certificateErrors({ ...CERT, expiresOn: '2026-11-27' }, NOW)).toEqual({});
  });

  it('names what is missing, an impossible day and an expired certificate', () => {
    expect(certificateErrors({}, NOW)).toEqual({
      number: { message: 'ra.validation.required', args: {} },
      issuer: { message: 'ra.validation.required', args: {} },
      expiresOn: { message: 'ra.validation.required', args: {} },
    });
    expect(certificateErrors({ ...CERT, expiresOn: '2027-02-30' }, NOW)).toEqual({ expiresOn: { message: 'app.userSetting.certification.invalidDay', args: {} } });
    expect(certificateErrors({ ...CERT, expiresOn: '2026-11-26' }, NOW)).toEqual({ expiresOn: { message: 'app.userSetting.certification.expired', args: {} } });
  });
});
