import { useState } from 'react';
import { Confirm, type RaRecord } from 'react-admin';

/** What may not reach a chamber in session without a second thought (docs/monitoring.md). */
type SessionChange = 'closePermission' | 'repair' | 'settings';

interface Pending {
  change: SessionChange;
  /** The new settings, as "SP 1.5 → 2 ATA, ST 60 → 90 分钟" (settings only). */
  detail: string;
  run: () => void;
}

/**
 * Asks before a change that affects a chamber in session (its SessionOC is set): closing its permission,
 * setting it to Repair, sending new settings. The question names the device (Id and name) and the
 * change; between sessions the change goes at once. `dialog` is rendered beside the buttons.
 */
export const useSessionConfirm = (record: RaRecord | undefined) => {
  const [pending, setPending] = useState<Pending | null>(null);
  const inSession = Boolean(record?.SessionOC);
  const confirmFirst = (change: SessionChange, run: () => void, detail = '') => {
    if (inSession) setPending({ change, detail, run });
    else run();
  };
  const dialog = (
    <Confirm
      isOpen={pending !== null}
      title="app.confirm.title"
      content={`app.confirm.${pending?.change ?? 'settings'}`}
      translateOptions={{ Id: String(record?.Id ?? ''), name: String(record?.name ?? ''), detail: pending?.detail ?? '' }}
      confirm="app.confirm.go"
      confirmColor="warning"
      onConfirm={() => {
        pending?.run();
        setPending(null);
      }}
      onClose={() => setPending(null)}
    />
  );
  return { confirmFirst, dialog };
};
