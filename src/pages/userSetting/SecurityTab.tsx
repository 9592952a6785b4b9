import { useTranslate } from 'react-admin';
import { ChangePasswordForm } from '../ChangePasswordForm';
import { OpenSessions } from './OpenSessions';
import { Section } from './Section';
import type { TabProps } from './tabProps';

/** Security: the own password, then the account's open sessions (not while a reset password waits: the server refuses them). */
export const SecurityTab = ({ mustChangeCode, onPasswordChanged }: TabProps) => {
  const translate = useTranslate();
  return (
    <>
      <Section id="settings-password" title={translate('app.settings.password')}>
        <ChangePasswordForm onChanged={onPasswordChanged} />
      </Section>
      {!mustChangeCode && (
        <Section id="settings-sessions" title={translate('app.userSetting.sessions.title')}>
          <OpenSessions />
        </Section>
      )}
    </>
  );
};
