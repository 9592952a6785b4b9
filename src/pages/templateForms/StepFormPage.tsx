import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { BooleanInput, DateInput, Form, FormDataConsumer, SelectArrayInput, SelectInput, TextInput, Title, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { CHANNEL_TYPES, KEYWORDS, stepBasicFormSchema, stepChannelSchema, type StepFormBody } from '../../domain/channelForm';
import { channelFormValidator, KEEP_ERRORS, serverErrors, useChannelFormSubmit, type SubmitOutcome } from './submit';

type Basic = Pick<StepFormBody, 'activityName' | 'channelType' | 'promotionStart' | 'promotionEnd' | 'promoteLink'>;
type Channel = Pick<StepFormBody, 'advertisingSource' | 'advertisingMedia' | 'keyword' | 'pushNotify' | 'advertisingContent'>;

// The channel type starts unchosen, as the old console's did: its required rule is one of the form's.
const BASIC: Basic = { activityName: '', channelType: '' as Basic['channelType'], promotionStart: '', promotionEnd: '', promoteLink: 'https://' };
const CHANNEL: Channel = { advertisingSource: '', advertisingMedia: '', keyword: [], pushNotify: true, advertisingContent: '' };

const field = (name: string) => `app.channelForm.fields.${name}`;
const hint = (name: string) => `app.channelForm.hints.${name}`;
const choices = (group: string, values: readonly string[]) => values.map((id) => ({ id, name: `app.channelForm.choices.${group}.${id}` }));

/** Text fields leave react-admin as null when emptied; the schema wants the empty text. */
const asText = <T extends object>(values: T, defaults: T): T =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value ?? (typeof defaults[key as keyof T] === 'string' ? '' : value)])) as T;

const Buttons = ({ children }: { children: ReactNode }) => (
  <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
    {children}
  </Stack>
);

/** Step 2's "previous": keeps what was typed for when the user comes back. */
const PrevButton = ({ onPrev }: { onPrev: (values: Channel) => void }) => {
  const translate = useTranslate();
  return (
    <FormDataConsumer<Channel>>{({ formData }) => <Button onClick={() => onPrev(formData)}>{translate('app.channelForm.prev')}</Button>}</FormDataConsumer>
  );
};

/**
 * `/form/step`: the template's channel creation in three steps (basic information, channel information,
 * finish), every rule of the old console checked by the shared schema before each step goes on; the
 * submit ends on the success or the error result page. Back from the error page ("return for
 * correction") it starts again from what was sent, the server's message under the field it names.
 */
export const StepFormPage = () => {
  const translate = useTranslate();
  const correction = (useLocation().state as SubmitOutcome | null)?.failed;
  const sent = correction?.values.form === 'step' ? correction.values : undefined;
  const [step, setStep] = useState(0);
  const [basic, setBasic] = useState<Basic>(sent ? { ...BASIC, ...pick(sent, BASIC) } : BASIC);
  const [channel, setChannel] = useState<Channel>(sent ? { ...CHANNEL, ...pick(sent, CHANNEL) } : CHANNEL);
  const submit = useChannelFormSubmit();
  const basicErrors = useMemo(() => serverErrors(sent && correction, Object.keys(BASIC)), [sent, correction]);
  const channelErrors = useMemo(() => serverErrors(sent && correction, Object.keys(CHANNEL)), [sent, correction]);
  const steps = [
    ['basic', 'basicHint'],
    ['channel', 'channelHint'],
    ['finish', 'finishHint'],
  ] as const;
  return (
    <Card sx={{ mt: 2 }} data-testid="step-form">
      <Title title={translate('app.menu.stepForm')} />
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate('app.channelForm.step.title')}
        </Typography>
        <Stepper activeStep={step} sx={{ mb: 3, maxWidth: 720 }}>
          {steps.map(([label, sub]) => (
            <Step key={label}>
              <StepLabel optional={<Typography variant="caption">{translate(`app.channelForm.step.${sub}`)}</Typography>}>
                {translate(`app.channelForm.step.${label}`)}
              </StepLabel>
            </Step>
          ))}
        </Stepper>
        {correction && sent && (
          <Alert severity="error" sx={{ mb: 2, maxWidth: 560 }}>
            {translate('app.channelForm.correction', { message: correction.message })}
          </Alert>
        )}
        <Box sx={{ maxWidth: 560 }}>
          {step === 0 && (
            <Form
              defaultValues={basic}
              errors={basicErrors}
              resetOptions={KEEP_ERRORS}
              validate={(values: Record<string, unknown>) => channelFormValidator(stepBasicFormSchema)(asText(values as Basic, BASIC))}
              onSubmit={(values: Record<string, unknown>) => {
                setBasic(asText(values as Basic, BASIC));
                setStep(1);
              }}
              noValidate
            >
              <TextInput source="activityName" label={field('activityName')} helperText={hint('activityName')} fullWidth />
              <SelectInput source="channelType" label={field('channelType')} choices={choices('channelType', CHANNEL_TYPES)} fullWidth />
              <Stack direction="row" spacing={2}>
                <DateInput source="promotionStart" label={field('promotionStart')} />
                <DateInput source="promotionEnd" label={field('promotionEnd')} />
              </Stack>
              <TextInput source="promoteLink" label={field('promoteLink')} helperText={hint('promoteLink')} fullWidth />
              <Buttons>
                <Button type="submit" variant="contained">
                  {translate('app.channelForm.next')}
                </Button>
              </Buttons>
            </Form>
          )}
          {step === 1 && (
            <Form
              defaultValues={channel}
              errors={channelErrors}
              resetOptions={KEEP_ERRORS}
              validate={(values: Record<string, unknown>) => channelFormValidator(stepChannelSchema)(asText(values as Channel, CHANNEL))}
              onSubmit={async (values: Record<string, unknown>) => {
                const typed = asText(values as Channel, CHANNEL);
                setChannel(typed);
                setStep(2);
                await submit({ form: 'step', ...basic, ...typed });
              }}
              noValidate
            >
              <TextInput source="advertisingSource" label={field('advertisingSource')} helperText={hint('advertisingSource')} fullWidth />
              <TextInput source="advertisingMedia" label={field('advertisingMedia')} helperText={hint('advertisingMedia')} fullWidth />
              <SelectArrayInput source="keyword" label={field('keyword')} choices={choices('keyword', KEYWORDS)} fullWidth />
              <BooleanInput source="pushNotify" label={field('pushNotify')} />
              <TextInput
                source="advertisingContent"
                label={field('advertisingContent')}
                helperText={hint('advertisingContent')}
                multiline
                minRows={3}
                fullWidth
              />
              <Buttons>
                <PrevButton
                  onPrev={(values) => {
                    setChannel(asText(values, CHANNEL));
                    setStep(0);
                  }}
                />
                <Button type="submit" variant="contained">
                  {translate('app.channelForm.submit')}
                </Button>
              </Buttons>
            </Form>
          )}
          {step === 2 && (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <CircularProgress size={20} />
              <Typography>{translate('app.channelForm.step.submitting')}</Typography>
            </Stack>
          )}
        </Box>
      </CardContent>
    </Card>
  );
};

/** The values of `body` under the keys of `shape`. */
const pick = <T extends object>(body: StepFormBody, shape: T): Partial<T> =>
  Object.fromEntries(Object.keys(shape).map((key) => [key, body[key as keyof StepFormBody]])) as Partial<T>;
