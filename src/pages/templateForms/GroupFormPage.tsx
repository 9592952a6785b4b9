import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import { Form, NumberInput, SelectInput, TextInput, Title, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { AUDIO_CHANNELS, AUDIO_PROFILES, groupFormSchema, RESOLUTIONS, VIDEO_PROFILES, type GroupFormBody } from '../../domain/channelForm';
import { channelFormValidator, KEEP_ERRORS, serverErrors, useChannelFormSubmit, type SubmitOutcome } from './submit';

type Values = Omit<GroupFormBody, 'form'>;

/** The old console's placeholders made values within every range, so the form starts valid. */
const DEFAULTS: Values = {
  videoAcquisitionResolution: '1920x1080',
  videoAcquisitionFrameRate: 25,
  videoEncodingResolution: '1920x1080',
  videoRateMin: 150,
  videoRateMax: 1800,
  videoRateDefault: 800,
  videoEncodingFrameRate: 25,
  videoProfile: 'main',
  audioAcquisitionChannels: '2',
  audioEncodingRate: 192,
  audioEncodingChannels: '2',
  audioProfile: 'aac-lc',
  description: '',
};

const validate = channelFormValidator(groupFormSchema);
const label = (name: keyof Values) => `app.channelForm.fields.${name}`;
const named = (group: string, values: readonly string[]) => values.map((id) => ({ id, name: `app.channelForm.choices.${group}.${id}` }));
const plain = (values: readonly string[]) => values.map((id) => ({ id, name: id }));

/** A titled card of the form. */
const Part = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate(title)}
        </Typography>
        <Grid container columnSpacing={3}>
          {children}
        </Grid>
      </CardContent>
    </Card>
  );
};

/** One field in a third of the card's width. */
const Cell = ({ children }: { children: ReactNode }) => <Grid size={{ xs: 12, md: 4 }}>{children}</Grid>;

const Rate = ({ source, range }: { source: keyof Values; range: 'frameRate' | 'bitRate' }) => (
  <Cell>
    <NumberInput source={source} label={label(source)} helperText={`app.channelForm.hints.${range}`} step={1} fullWidth />
  </Cell>
);

/**
 * `/form/group`: the template's video and audio parameters, frame rates 1–30 and bit rates 150–1800
 * (the shared schema, src/domain/channelForm.ts), and a description of at most 200 characters; the
 * submit ends on the success or the error result page.
 */
export const GroupFormPage = () => {
  const translate = useTranslate();
  const correction = (useLocation().state as SubmitOutcome | null)?.failed;
  const sent = correction?.values.form === 'group' ? correction.values : undefined;
  const submit = useChannelFormSubmit();
  // Reset gives a new form from the defaults.
  const [generation, setGeneration] = useState(0);
  const initial: Values = sent && generation === 0 ? { ...DEFAULTS, ...withoutForm(sent) } : DEFAULTS;
  const errors = useMemo(() => (generation === 0 ? serverErrors(sent && correction, Object.keys(DEFAULTS)) : undefined), [sent, correction, generation]);
  return (
    <Form
      key={generation}
      defaultValues={initial}
      errors={errors}
      resetOptions={KEEP_ERRORS}
      validate={(values: Record<string, unknown>) => validate({ form: 'group', ...values, description: values.description ?? '' })}
      onSubmit={(values: Record<string, unknown>) => submit({ ...(values as Values), description: (values.description as string | null) ?? '', form: 'group' })}
      noValidate
    >
      <Title title={translate('app.menu.groupForm')} />
      <Stack spacing={2} sx={{ mt: 2 }} data-testid="group-form">
        {correction && sent && generation === 0 && (
          <Alert severity="error">{translate('app.channelForm.correction', { message: correction.message })}</Alert>
        )}
        <Part title="app.channelForm.group.video">
          <Cell>
            <SelectInput source="videoAcquisitionResolution" label={label('videoAcquisitionResolution')} choices={plain(RESOLUTIONS)} fullWidth />
          </Cell>
          <Rate source="videoAcquisitionFrameRate" range="frameRate" />
          <Cell>
            <SelectInput source="videoEncodingResolution" label={label('videoEncodingResolution')} choices={plain(RESOLUTIONS)} fullWidth />
          </Cell>
          <Rate source="videoRateMin" range="bitRate" />
          <Rate source="videoRateMax" range="bitRate" />
          <Rate source="videoRateDefault" range="bitRate" />
          <Rate source="videoEncodingFrameRate" range="frameRate" />
          <Cell>
            <SelectInput source="videoProfile" label={label('videoProfile')} choices={named('videoProfile', VIDEO_PROFILES)} fullWidth />
          </Cell>
        </Part>
        <Part title="app.channelForm.group.audio">
          <Cell>
            <SelectInput source="audioAcquisitionChannels" label={label('audioAcquisitionChannels')} choices={named('channels', AUDIO_CHANNELS)} fullWidth />
          </Cell>
          <Rate source="audioEncodingRate" range="bitRate" />
          <Cell>
            <SelectInput source="audioEncodingChannels" label={label('audioEncodingChannels')} choices={named('channels', AUDIO_CHANNELS)} fullWidth />
          </Cell>
          <Cell>
            <SelectInput source="audioProfile" label={label('audioProfile')} choices={named('audioProfile', AUDIO_PROFILES)} fullWidth />
          </Cell>
        </Part>
        <Part title="app.channelForm.group.description">
          <Grid size={12}>
            <TextInput source="description" label={label('description')} helperText="app.channelForm.hints.description" multiline minRows={3} fullWidth />
          </Grid>
        </Part>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={() => setGeneration((value) => value + 1)}>{translate('app.channelForm.reset')}</Button>
          <Button type="submit" variant="contained">
            {translate('app.channelForm.submit')}
          </Button>
        </Stack>
      </Stack>
    </Form>
  );
};

const withoutForm = ({ form: _form, ...values }: GroupFormBody): Values => values;
