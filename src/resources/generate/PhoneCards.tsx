import { Fragment, type ComponentType } from 'react';
import { Box, Card, Stack, Typography } from '@mui/material';
import { RecordContextProvider, useCreatePath, useListContext, useResourceContext, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { FieldConfig, ResourceConfig } from '../types';
import { fieldElement } from './fields';
import type { Labels } from './labels';

interface PhoneCardsProps {
  config: ResourceConfig;
  /** The list's columns in order: each card shows them as label and value. */
  columns: [string, FieldConfig][];
  labels: Labels;
  /** The row actions, at the card's foot. */
  actions?: ComponentType;
}

/**
 * A list on a phone: one card per record with the list's fields one under the other, so a record is read
 * without scrolling sideways; a tap opens its page, as a row's click does, and the row actions sit at the
 * card's foot, each a thumb's size.
 */
export const PhoneCards = ({ config, columns, labels, actions: Actions }: PhoneCardsProps) => {
  const { data, isPending } = useListContext();
  const resource = useResourceContext();
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const translate = useTranslate();
  if (isPending) return null;
  if (data === undefined || data.length === 0) {
    return <Typography sx={{ p: 2 }}>{translate('ra.navigation.no_results')}</Typography>;
  }
  return (
    <Stack spacing={1} sx={{ p: 1 }}>
      {data.map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <Card variant="outlined" data-phone-card={record.id}>
            <Box
              component="dl"
              onClick={() => navigate(createPath({ resource, id: record.id, type: 'show' }))}
              sx={{ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.5, m: 0, p: 1.5, cursor: 'pointer' }}
            >
              {columns.map(([source, field]) => {
                const value = fieldElement(config, source, field, labels, false);
                return (
                  value && (
                    <Fragment key={source}>
                      <Typography component="dt" variant="body2" color="text.secondary">
                        {labels.field(source)}
                      </Typography>
                      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                        {value}
                      </Box>
                    </Fragment>
                  )
                );
              })}
            </Box>
            {Actions && (
              <Box sx={{ display: 'flex', justifyContent: 'flex-end', px: 1, pb: 1 }}>
                <Actions />
              </Box>
            )}
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
};
