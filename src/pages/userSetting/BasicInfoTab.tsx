import { Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, FormDataConsumer, SaveButton, TextInput, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { BASIC_INFO_MAX, PROFILE_MAX_WORDS, profileWords, type BasicInfo } from '../../domain/userSettings';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { basicInfoErrors } from './formRules';
import { Loaded } from './Loaded';
import { Section } from './Section';

const QUERY_KEY = ['userSetting', 'basicInfo'];

/** The profile text's count against its limit, under the field (each Chinese character counts one: profileWords). */
const ProfileCount = ({ profile }: { profile: string }) => {
  const translate = useTranslate();
  return (
    <Typography variant="caption" color={profileWords(profile) > PROFILE_MAX_WORDS ? 'error' : 'text.secondary'} data-testid="profile-count">
      {translate('app.userSetting.basic.profileCount', { count: profileWords(profile), max: PROFILE_MAX_WORDS })}
    </Typography>
  );
};

/**
 * Basic information (`/api/user/save-info`): email, nickname, country/region and area required; address,
 * phone and a profile text of at most 200 words. The rules are the shared schema the server checks with
 * (./formRules.ts); a refusal it still makes shows as its message, naming the field.
 */
export const BasicInfoTab = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: QUERY_KEY, queryFn: () => dataProvider.basicInfo() });
  const save = useMutation({ mutationFn: (values: BasicInfo) => dataProvider.saveBasicInfo(values) });

  const submit = async (values: Partial<BasicInfo>) => {
    const saved: BasicInfo = { email: '', nickname: '', countryRegion: '', area: '', address: '', phone: '', profile: '', ...values };
    await save.mutateAsync(saved).then(
      async () => {
        notify('app.userSetting.basic.saved', { type: 'success' });
        await queryClient.invalidateQueries({ queryKey: QUERY_KEY });
      },
      // The HTTP client has shown the server's message, which names the field.
      () => undefined,
    );
  };
  const field = (source: keyof typeof BASIC_INFO_MAX, required: boolean, type = 'text') => (
    <TextInput
      source={source}
      label={`app.userSetting.basic.${source}`}
      type={type}
      isRequired={required}
      inputProps={{ maxLength: BASIC_INFO_MAX[source] }}
      fullWidth
    />
  );

  return (
    <Section id="settings-basic" title={translate('app.userSetting.tabs.basic')}>
      <Loaded query={info}>
        {(stored) => (
          <Form defaultValues={stored} onSubmit={submit} validate={basicInfoErrors} noValidate>
            <Stack sx={{ maxWidth: 560 }}>
              {field('email', true, 'email')}
              {field('nickname', true)}
              {field('countryRegion', true)}
              {field('area', true)}
              {field('address', false)}
              {field('phone', false, 'tel')}
              <TextInput source="profile" label="app.userSetting.basic.profile" multiline minRows={3} fullWidth helperText={false} />
              <FormDataConsumer<Partial<BasicInfo>>>{({ formData }) => <ProfileCount profile={formData.profile ?? ''} />}</FormDataConsumer>
              <div>
                <SaveButton label="app.userSetting.basic.save" sx={{ mt: 2 }} alwaysEnable />
              </div>
            </Stack>
          </Form>
        )}
      </Loaded>
    </Section>
  );
};
