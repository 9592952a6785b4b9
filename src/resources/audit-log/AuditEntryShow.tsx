import { FunctionField, Show, SimpleShowLayout, useLocaleState, type RaRecord } from 'react-admin';
import { fieldElement } from '../generate/fields';
import { useLabels } from '../generate/labels';
import { entriesIn } from '../model';
import { AUDIT_LOG_CONFIG as auditLogConfig } from '../configs';

/** `before` and `after` are free JSON, not configured fields, so their labels live here. */
const CHANGE_LABELS: Record<string, { before: string; after: string }> = {
  'zh-CN': { before: '变更前', after: '变更后' },
  'en-US': { before: 'Before', after: 'After' },
};

const asJson = (value: unknown): string => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 2));

/**
 * The generated show page of an audit entry (every `show` field of the configuration), read-only, plus the
 * state before and after the change as formatted JSON.
 */
export const AuditEntryShow = () => {
  const labels = useLabels(auditLogConfig);
  const [locale] = useLocaleState();
  const changeLabels = CHANGE_LABELS[locale] ?? CHANGE_LABELS['en-US'];
  return (
    <Show actions={false}>
      <SimpleShowLayout>
        {entriesIn(auditLogConfig, 'show').map(([source, field]) => fieldElement(auditLogConfig, source, field, labels, false))}
        {(['before', 'after'] as const).map((source) => (
          <FunctionField
            key={source}
            source={source}
            label={changeLabels?.[source]}
            render={(record: RaRecord) => <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{asJson(record[source])}</pre>}
          />
        ))}
      </SimpleShowLayout>
    </Show>
  );
};
