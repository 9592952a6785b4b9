import { useDataProvider } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { channelFormProblems, type ChannelFormBody } from '../../domain/channelForm';
import { CODES } from '../../domain/envelope';
import { badInputField, type ConsoleDataProvider } from '../../providers/dataProvider';
import { UpstreamError } from '../../providers/httpClient';

/** The form's path of each kind, where "return for correction" leads. */
export const FORM_PATHS = { step: '/form/step', group: '/form/group' } as const;

/** What the result pages are given by a submit (router state): which form, and on failure why and what was sent. */
export type SubmitOutcome =
  | { form: ChannelFormBody['form']; failed?: undefined }
  | { form: ChannelFormBody['form']; failed: { message: string; forbidden: boolean; field?: string; values: ChannelFormBody } };

/** react-admin's `{ message, args }`: each field's first broken rule of the shared schema, as a catalogue key. */
export const channelFormValidator = (schema: z.ZodType) => (values: Record<string, unknown>) =>
  Object.fromEntries(
    channelFormProblems(schema, values).map(({ field, rule, params }) => [field.split('.')[0], { message: `app.channelForm.error.${rule}`, args: params }]),
  );

/**
 * Sends a form to `api/channel-form/submit` and goes to the success result page, or, when the server (or
 * the mocks) refuse it or cannot be reached, to the error result page with the reason and what was sent.
 */
export const useChannelFormSubmit = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const navigate = useNavigate();
  return async (body: ChannelFormBody) => {
    try {
      await dataProvider.submitChannelForm(body);
      navigate('/result/success', { state: { form: body.form } satisfies SubmitOutcome });
    } catch (error) {
      const failed = {
        message: error instanceof Error ? error.message : String(error),
        forbidden: error instanceof UpstreamError && error.code === CODES.forbidden,
        field: badInputField(error, Object.keys(body)),
        values: body,
      };
      navigate('/result/error', { state: { form: body.form, failed } satisfies SubmitOutcome });
    }
  };
};

/**
 * Back from the error page: the server's message under the field it names, as react-hook-form's `errors`
 * of the form that holds the field; give it with `resetOptions={KEEP_ERRORS}`, since react-admin's Form
 * resets itself to its default values once mounted.
 */
export const serverErrors = (failed: { field?: string; message: string } | undefined, fields: readonly string[]) =>
  failed?.field !== undefined && fields.includes(failed.field) ? { [failed.field]: { type: 'server', message: failed.message } } : undefined;

export const KEEP_ERRORS = { keepErrors: true } as const;
